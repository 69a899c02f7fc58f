import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function AccountPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
