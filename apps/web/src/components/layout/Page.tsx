import { lazy, type ReactNode, Suspense } from 'react';
import { useSession } from '../../lib/session';
import { Header } from './Header';
import l from './layout.module.css';

// The signed-in member's bottom tab bar, in MemberLinks' chunk: a visitor's landing page loads none of it.
const BottomTabs = lazy(() => import('./MemberLinks').then((m) => ({ default: m.BottomTabs })));

interface Props {
  title?: string;
  variant?: 'main' | 'sub';
  close?: boolean;
  /** No padding: the page lays out its own full-width sections. */
  flush?: boolean;
  /** Show the signed-in member's bottom tab bar (the top-level screens: home, trade, wallet, my info). */
  tabs?: boolean;
  children: ReactNode;
}

/** A screen: the header, a padded single column and, on top-level screens, the bottom tab bar. */
export function Page({ title, variant = 'sub', close, flush, tabs, children }: Props) {
  const signedIn = useSession((st) => Boolean(st.accessToken));
  const withTabs = Boolean(tabs && signedIn);
  return (
    <>
      <Header variant={variant} title={title} close={close} />
      <main className={`${l.main} ${flush ? l.mainFlush : ''} ${withTabs ? l.mainWithTabs : ''}`}>
        {children}
      </main>
      {withTabs && (
        <Suspense fallback={null}>
          <BottomTabs />
        </Suspense>
      )}
    </>
  );
}
