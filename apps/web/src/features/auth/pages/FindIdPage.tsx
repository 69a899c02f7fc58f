import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function FindIdPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
