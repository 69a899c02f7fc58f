import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function AgreementPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
