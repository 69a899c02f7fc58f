import { PlaceholderPage } from '../../../components/ui/Placeholder';

export default function ContactPage() {
  return <PlaceholderPage titleKey="common:appName" />;
}
