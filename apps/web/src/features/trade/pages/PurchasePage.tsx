import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /purchase: placeholder until the trading/wallet screens land (issue 5). */
export default function PurchasePage() {
  return <PlaceholderPage titleKey="common:routes.purchase" />;
}
