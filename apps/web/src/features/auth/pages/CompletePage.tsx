import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function CompletePage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
