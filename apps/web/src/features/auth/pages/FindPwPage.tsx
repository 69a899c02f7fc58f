import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function FindPwPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
