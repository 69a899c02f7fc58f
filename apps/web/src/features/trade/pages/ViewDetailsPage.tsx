import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /view_details: placeholder until the trading/wallet screens land (issue 5). */
export default function ViewDetailsPage() {
  return <PlaceholderPage titleKey="common:routes.viewDetails" />;
}
