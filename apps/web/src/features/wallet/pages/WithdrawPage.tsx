import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /withdraw: placeholder until the trading/wallet screens land (issue 5). */
export default function WithdrawPage() {
  return <PlaceholderPage titleKey="common:routes.withdraw" />;
}
