import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function SignupPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
