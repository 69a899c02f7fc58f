import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /request_successfully: placeholder until the trading/wallet screens land (issue 5). */
export default function RequestSuccessfullyPage() {
  return <PlaceholderPage titleKey="common:routes.requestSuccessfully" close />;
}
