import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /verify: placeholder until the trading/wallet screens land (issue 5). */
export default function VerifyPage() {
  return <PlaceholderPage titleKey="common:routes.verify" />;
}
