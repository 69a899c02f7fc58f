import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function ModifyPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
