import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /wallet: placeholder until the trading/wallet screens land (issue 5). */
export default function WalletPage() {
  return <PlaceholderPage titleKey="common:routes.wallet" />;
}
