import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /create_wallet: placeholder until the trading/wallet screens land (issue 5). */
export default function CreateWalletPage() {
  return <PlaceholderPage titleKey="common:routes.createWallet" />;
}
