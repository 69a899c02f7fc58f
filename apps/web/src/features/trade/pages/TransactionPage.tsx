import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /transaction: placeholder until the trading/wallet screens land (issue 5). */
export default function TransactionPage() {
  return <PlaceholderPage titleKey="common:routes.transaction" />;
}
