import { SupportPage } from '../components/SupportPage';

/** /contact (SPEC §2): open the support chat app or write an e-mail. */
export default function ContactPage() {
  return <SupportPage texts="contact" />;
}
