import { PlaceholderPage } from '../../../components/ui/Placeholder';

/** /proceed: placeholder until the trading/wallet screens land (issue 5). */
export default function ProceedPage() {
  return <PlaceholderPage titleKey="common:routes.proceed" />;
}
