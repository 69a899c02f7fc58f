import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function MyInfoPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
