import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { memberByLoginId } from '../../api/src/modules/identity/index.ts';
import { grantKycLevel } from '../../api/src/modules/kyc/index.ts';
import { PRODUCTION_TRUST } from '../../api/test/helpers.ts';
import { confirmAction, consoleLogin, DESK, newPage, OPERATOR, opsShot } from './ops-kit.ts';
import { newMember, signupViaApi } from './support/flows.ts';
import { startE2EServer } from './support/server.ts';
import { e2eSuite } from './support/suite.ts';
import { apiOk, expectToast, type Member, switchLanguage, uiLogin } from './trade-kit.ts';

/**
 * DECISIONS §19 level 2 in the browsers: a level-1 member uploads a photo of an ID document in the 인증 센터,
 * the operator opens /ops/kyc, sees the decrypted document in the confirmation and rejects it with a reason
 * the member then reads; the member uploads again and the operator approves: the member is at level 2. Each
 * viewing and decision is in the audit log.
 */
const e2e = e2eSuite(() =>
  startE2EServer({
    ...PRODUCTION_TRUST,
    KYC_TRADE_LEVEL: '1',
    OPERATOR_LOGIN_ID: OPERATOR.loginId,
    OPERATOR_PASSWORD: OPERATOR.password,
  }),
);

let m: Member;
let member: Page;
let ops: Page;

/** A small PNG (a grey card with a dark band) as an ID photo stand-in. */
function idPhoto(): Buffer {
  const png = new PNG({ width: 64, height: 40 });
  for (let i = 0; i < png.data.length; i += 4) {
    const row = Math.floor(i / 4 / 64);
    const v = row > 10 && row < 16 ? 40 : 200;
    png.data[i] = v;
    png.data[i + 1] = v;
    png.data[i + 2] = v;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** The member uploads the photo on /verification and sees it waiting for review. */
async function upload(p: Page) {
  await p.goto('/verification#document');
  await p.getByTestId('kyc-document-file').setInputFiles({
    name: 'id.png',
    mimeType: 'image/png',
    buffer: idPhoto(),
  });
  await p.getByTestId('kyc-document-upload').click();
  await expect.poll(() => p.getByTestId('kyc-document-status').textContent()).toContain('심사하고 있어요');
}

/** The newest pending document's id in the queue. */
async function pendingId(): Promise<number> {
  const opToken = await apiOk<{ accessToken: string }>(e2e.server, 'POST', '/api/v1/auth/login', undefined, {
    loginId: OPERATOR.loginId,
    password: OPERATOR.password,
  });
  const page = await apiOk<{ list: { id: number; loginId: string }[] }>(
    e2e.server,
    'GET',
    '/ops/api/v1/kyc?status=PENDING',
    opToken.accessToken,
  );
  const mine = page.list.filter((d) => d.loginId === m.loginId);
  const last = mine[mine.length - 1];
  if (!last) throw new Error('no pending document');
  return last.id;
}

describe('the KYC review queue', () => {
  beforeAll(async () => {
    const nm = await signupViaApi(e2e.server, { ...newMember(), name: 'Choi Yuna' });
    const row = await memberByLoginId(e2e.server.t.app.deps.db, nm.loginId);
    if (!row) throw new Error('no member');
    await grantKycLevel(e2e.server.t.app.deps.db, row.id, 1);
    m = { ...nm, token: '' };
    member = (await e2e.mobilePage()).page;
    await uiLogin(member, m);
    await switchLanguage(member, 'kr');
    ops = (await newPage(e2e.browser, e2e.server.baseUrl, DESK)).page;
    await consoleLogin(ops, OPERATOR);
    await ops.waitForURL((u) => u.pathname === '/ops');
  });

  it('rejects a document with a reason the member reads, and approves the next: level 2', async () => {
    await upload(member);
    const first = await pendingId();
    await ops.getByTestId('ops-nav-kyc').click();
    await ops.getByTestId(`kyc-row-${first}`).waitFor();
    expect(await ops.getByTestId(`kyc-row-${first}`).textContent()).toContain('Choi Yuna');
    await ops.getByTestId(`kyc-reject-${first}`).click();
    await ops.getByTestId(`kyc-image-${first}`).waitFor();
    const size = await ops
      .getByTestId(`kyc-image-${first}`)
      .evaluate((img) => (img as HTMLImageElement).naturalWidth);
    expect(size).toBe(64);
    await opsShot(ops, 'kyc-reject');
    await confirmAction(ops, { reason: 'The photo is too dark to read' });
    await expectToast(ops, `#${first}`);

    await member.reload();
    await expect
      .poll(() => member.getByTestId('kyc-document-status').textContent())
      .toContain('The photo is too dark to read');
    await upload(member);
    const second = await pendingId();
    expect(second).not.toBe(first);
    await ops.reload();
    await ops.getByTestId(`kyc-approve-${second}`).click();
    await ops.getByTestId(`kyc-image-${second}`).waitFor();
    await confirmAction(ops);
    await ops.getByTestId(`kyc-row-${second}`).waitFor({ state: 'detached' });

    await member.reload();
    await expect.poll(() => member.getByTestId('kyc-level').textContent()).toBe('2');
    const audit = await e2e.server.t.app.deps.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('target_type', '=', 'kyc_document')
      .where('target_id', 'in', [String(first), String(second)])
      .execute();
    const actions = audit.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['kyc.view', 'kyc.reject', 'kyc.approve']));
  });
});
