import { type ComponentType, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { myInfoTabOf } from '../../../components/layout/tab-state';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { paths } from '../../../config/paths';
import { useMe } from '../../../lib/me';
import { STORAGE_KEYS, session } from '../../../lib/storage';
import { useLogout } from '../../../lib/use-logout';
import {
  PurchaseHistoryTab,
  SellHistoryTab,
  SellRegistrationsTab,
  useOrderCounts,
  WaitingBadge,
  WalletTab,
} from '../../mypage';
import s from '../account.module.css';
import { CountryLabel } from '../components/CountryLabel';
import { VerificationEntry } from '../components/VerificationEntry';

/** The four /myinfo tabs (SPEC §2); the value is what sessionStorage `myInfoActiveTab` holds. */
export const MY_INFO_TABS = ['wallet', 'purchase', 'sellRegister', 'sellHistory'] as const;
export type MyInfoTab = (typeof MY_INFO_TABS)[number];

const TAB_CONTENT: Record<MyInfoTab, ComponentType> = {
  wallet: WalletTab,
  purchase: PurchaseHistoryTab,
  sellRegister: SellRegistrationsTab,
  sellHistory: SellHistoryTab,
};

function storedTab(): MyInfoTab {
  const v = session.get(STORAGE_KEYS.myInfoActiveTab);
  return (MY_INFO_TABS as readonly string[]).includes(v ?? '') ? (v as MyInfoTab) : 'wallet';
}

/**
 * The open tab, remembered for the browser session (SPEC §2). The bottom tab bar's 지갑 / 내 정보 open
 * /myinfo on a tab (navigation state `tab`), also when the member is already here: chosen like a tap on it.
 */
function useMyInfoTab(): [MyInfoTab, (tab: MyInfoTab) => void] {
  const [tab, setTab] = useState<MyInfoTab>(storedTab);
  const { state, key } = useLocation();
  // a tap chooses (PUSH, or REPLACE: React Router's Link replaces when it leads to the current URL, as
  // 내 정보 does on /myinfo); a reload or back (POP) keeps the tab remembered for the session
  const pushed = useNavigationType() !== 'POP';
  useEffect(() => {
    const wanted = myInfoTabOf(state);
    if (pushed && key && wanted && (MY_INFO_TABS as readonly string[]).includes(wanted)) {
      session.set(STORAGE_KEYS.myInfoActiveTab, wanted);
      setTab(wanted as MyInfoTab);
    }
  }, [state, key, pushed]);
  return [tab, setTab];
}

/** /myinfo (SPEC §2): greeting, link to /account, four tabs remembered for the browser session, logout. */
export default function MyInfoPage() {
  const { t } = useTranslation('account');
  const logout = useLogout();
  const me = useMe().data;
  const [tab, setTab] = useMyInfoTab();
  // orders waiting for the member (DECISIONS §11): the seller's badge, and the buyer's unpaid requests
  const counts = useOrderCounts().data;
  const waiting: Partial<Record<MyInfoTab, number>> = {
    purchase: counts?.buyerWaiting,
    sellHistory: counts?.sellerWaiting,
  };

  const choose = (next: MyInfoTab) => {
    session.set(STORAGE_KEYS.myInfoActiveTab, next);
    setTab(next);
  };
  const Content = TAB_CONTENT[tab];
  return (
    <Page title={t('myInfo.title')} tabs>
      <Card>
        <div className={s.profile}>
          <div className={s.avatar} aria-hidden="true">
            {(me?.nickname ?? '?').slice(0, 1).toUpperCase()}
          </div>
          <div style={{ minWidth: 0 }}>
            <p className={s.greeting} data-testid="greeting">
              {t('myInfo.greeting', { nickname: me?.nickname ?? '' })}
            </p>
            <div className={s.meta}>
              <span data-testid="my-login-id">{me?.loginId}</span>
              <span aria-hidden="true">·</span>
              <CountryLabel countryCode={me?.countryCode ?? ''} />
            </div>
          </div>
        </div>
        <AccountLinks />
      </Card>
      <div className={s.tabs} role="tablist" aria-label={t('myInfo.tabs')}>
        {MY_INFO_TABS.map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={tab === key}
            className={`${s.tab} ${tab === key ? s.tabActive : ''}`}
            onClick={() => choose(key)}
            data-testid={`tab-${key}`}
          >
            {t(`myInfo.tab.${key}`)}
            <WaitingBadge count={waiting[key]} testId={`tab-badge-${key}`} />
          </button>
        ))}
      </div>
      <div role="tabpanel" data-testid={`tabpanel-${tab}`}>
        <Content />
      </div>
      <Button block variant="outline" onClick={() => void logout()} data-testid="myinfo-logout">
        {t('common:nav.logout')}
      </Button>
    </Page>
  );
}

/** The ways to /account and to the verification center (DECISIONS §19) under the greeting. */
function AccountLinks() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  return (
    <>
      <div style={{ marginTop: 16 }}>
        <Button
          block
          variant="secondary"
          onClick={() => navigate(paths.account.path)}
          data-testid="to-account"
        >
          {t('myInfo.account')}
        </Button>
      </div>
      <div style={{ marginTop: 8 }}>
        <VerificationEntry />
      </div>
    </>
  );
}
