import { SupportPage } from '../components/SupportPage';

/** /findid (SPEC §2): IDs are recovered through customer service only. */
export default function FindIdPage() {
  return <SupportPage texts="findId" />;
}
