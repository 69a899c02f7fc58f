import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { WaitingBadge } from '../../features/mypage/components/WaitingBadge';
import { useOrderCounts } from '../../features/trade/api/get-order-counts';
import { STORAGE_KEYS, session } from '../../lib/storage';
import { HomeIcon, TradeIcon, UserIcon, WalletIcon } from './icons';
import l from './layout.module.css';
import { myInfoTabOf } from './tab-state';

type TabKey = 'home' | 'trade' | 'wallet' | 'me';

const WALLET_PATHS: string[] = [
  paths.wallet.path,
  paths.withdraw.path,
  paths.deposit.path,
  paths.createWallet.path,
];
const TRADE_PATHS: string[] = [paths.transaction.path, paths.purchase.path, paths.sell.path];

/** Which tab the screen belongs to: /myinfo is the wallet tab when its wallet tab is the one open. */
function activeTab(pathname: string, state: unknown): TabKey | null {
  if (pathname === paths.home.path) return 'home';
  if (TRADE_PATHS.includes(pathname)) return 'trade';
  if (WALLET_PATHS.includes(pathname)) return 'wallet';
  if (pathname === paths.myInfo.path) {
    const tab = myInfoTabOf(state) ?? session.get(STORAGE_KEYS.myInfoActiveTab);
    return tab === 'wallet' ? 'wallet' : 'me';
  }
  if (pathname === paths.account.path || pathname === paths.modify.path) return 'me';
  return null;
}

interface TabProps {
  to: string;
  /** Navigation state: the /myinfo tab to open. */
  state?: { tab: string };
  active: boolean;
  icon: ReactNode;
  label: string;
  testId: string;
  children?: ReactNode;
}

function Tab({ to, state, active, icon, label, testId, children }: TabProps) {
  return (
    <Link
      to={to}
      state={state}
      className={`${l.tab} ${active ? l.tabActive : ''}`}
      aria-current={active ? 'page' : undefined}
      data-testid={testId}
    >
      <span className={l.tabIcon}>
        {icon}
        {children}
      </span>
      <span>{label}</span>
    </Link>
  );
}

/**
 * The signed-in member's bottom tab bar (홈 / 거래 / 지갑 / 내 정보), as Korean finance apps have: the
 * screens a member comes back to, one tap away; 내 정보 carries the count of orders waiting for the member
 * (DECISIONS §11). Lives in MemberLinks' chunk so a visitor's landing page loads none of it.
 */
export function BottomTabs() {
  const { t } = useTranslation();
  const { pathname, state } = useLocation();
  const waiting = useOrderCounts(true).data?.sellerWaiting;
  const active = activeTab(pathname, state);
  // 내 정보 opens the tab last used there, the order history when that was the wallet
  const stored = session.get(STORAGE_KEYS.myInfoActiveTab);
  const meTab = stored && stored !== 'wallet' ? stored : 'purchase';
  return (
    <nav className={l.tabBar} aria-label={t('common:nav.tabs')} data-testid="bottom-tabs">
      <Tab
        to={paths.home.path}
        active={active === 'home'}
        icon={<HomeIcon />}
        label={t('common:nav.home')}
        testId="nav-home"
      />
      <Tab
        to={paths.transaction.path}
        active={active === 'trade'}
        icon={<TradeIcon />}
        label={t('common:nav.trade')}
        testId="nav-trade"
      />
      <Tab
        to={paths.myInfo.path}
        active={active === 'wallet'}
        icon={<WalletIcon />}
        label={t('common:nav.wallet')}
        testId="nav-wallet"
        state={{ tab: 'wallet' }}
      />
      <Tab
        to={paths.myInfo.path}
        active={active === 'me'}
        icon={<UserIcon />}
        label={t('common:nav.myPage')}
        testId="header-mypage"
        state={{ tab: meTab }}
      >
        <WaitingBadge count={waiting} testId="header-waiting" />
      </Tab>
    </nav>
  );
}
