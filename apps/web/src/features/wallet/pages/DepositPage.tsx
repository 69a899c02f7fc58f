import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /deposit: placeholder until the trading/wallet screens land (issue 5). */
export default function DepositPage() {
  return <PlaceholderPage titleKey="common:routes.deposit" />;
}
