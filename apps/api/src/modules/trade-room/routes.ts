import type { AppDeps } from '../../deps.ts';
import type { FastifyZod } from '../../http/types.ts';
import { registerChatRoutes } from '../chat/index.ts';
import { EventHub, partsOf, pruneEvents, registerEventRoutes, startEventBus } from '../events/index.ts';
import { createSms } from '../identity/index.ts';
import { registerPauseRoutes } from '../listings/index.ts';
import {
  createDispatcher,
  loadVapidKeys,
  registerNotificationRoutes,
  type VapidKeys,
} from '../notifications/index.ts';

/** How often each instance sweeps undispatched notifications and prunes the event backlog (ms). */
const SWEEP_MS = 30_000;

/**
 * The trade room (DECISIONS §12): order chat, live events, notifications with SMS and Web
 * Push, and the sellers' pause/resume. Committed events arrive from the database (LISTEN/NOTIFY, fed by
 * the 010_trade_room.sql triggers) on every instance; each instance serves its own streams and the one
 * that claims a notification sends its SMS and push. Streams end and the listener stops when the app closes.
 */
export default async function tradeRoomRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const hub = new EventHub(deps.db, app.log, {
    heartbeatSec: deps.config.tradeRoom.heartbeatSec,
    maxStreamsPerMember: deps.config.tradeRoom.maxStreamsPerMember,
  });
  let keys: VapidKeys | null | undefined;
  // Loaded on first use: an instance that never pushes never writes development keys to DATA_DIR.
  const vapid = () => {
    if (keys === undefined) keys = loadVapidKeys(deps.config, app.log);
    return keys;
  };
  const sms = createSms(deps.config, deps.redis, app.log);
  const dispatcher = createDispatcher(deps.db, sms.provider, vapid, app.log, deps.pushNetwork);
  const bus = await startEventBus(deps.dbh, app.log);
  bus.subscribe((e) => {
    hub.deliver(e);
    // a notification comes as its own event or as a part of an order's `change` row
    for (const p of partsOf(e)) {
      if (p.type === 'notification' && typeof p.data.id === 'number') {
        dispatcher.dispatch(p.data.id).catch((err) => app.log.warn({ err }, 'notification dispatch failed'));
      }
    }
  });
  // DECISIONS §21: a session revoked on any instance ends its streams on this one.
  bus.onSessionEnd((e) => hub.endSession(e));
  bus.onReconnect(() => {
    void hub.catchUpAll();
    hub.recheckSessions().catch((err) => app.log.warn({ err }, 'live events: session recheck failed'));
    dispatcher.sweep().catch((err) => app.log.warn({ err }, 'notification sweep failed'));
  });
  const timer = setInterval(() => {
    dispatcher.sweep().catch((err) => app.log.warn({ err }, 'notification sweep failed'));
    pruneEvents(deps).catch((err) => app.log.warn({ err }, 'event prune failed'));
  }, SWEEP_MS);
  timer.unref();

  registerEventRoutes(app, deps, hub);
  registerNotificationRoutes(app, deps, vapid);
  registerPauseRoutes(app, deps);
  await registerChatRoutes(app, deps);

  // Open streams would keep the server from closing: they end before it waits for connections.
  app.addHook('preClose', async () => {
    hub.closeAll();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await bus.close();
  });
}
