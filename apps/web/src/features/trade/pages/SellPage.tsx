import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /sell: placeholder until the trading/wallet screens land (issue 5). */
export default function SellPage() {
  return <PlaceholderPage titleKey="common:routes.sell" />;
}
