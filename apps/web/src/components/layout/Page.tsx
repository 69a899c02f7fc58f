import type { ReactNode } from 'react';
import { Header } from './Header';
import l from './layout.module.css';

interface Props {
  title?: string;
  variant?: 'main' | 'sub';
  close?: boolean;
  /** No padding: the page lays out its own full-width sections. */
  flush?: boolean;
  children: ReactNode;
}

/** A screen: the header and a padded single column. */
export function Page({ title, variant = 'sub', close, flush, children }: Props) {
  return (
    <>
      <Header variant={variant} title={title} close={close} />
      <main className={`${l.main} ${flush ? l.mainFlush : ''}`}>{children}</main>
    </>
  );
}
