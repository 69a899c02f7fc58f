import type { ChatClient } from '../../trade';
import { opsApi } from './client';

/**
 * The order chat as the console reads it (DECISIONS §12): the member chat routes with the operator's token
 * (operators read every order's chat and write while it is DISPUTED).
 */
export const opsChatClient: ChatClient = { name: 'ops', request: opsApi.request };

/** Also rereads the chat this often: the fallback when the live stream (use-ops-live-events.ts) is down. */
export const OPS_CHAT_POLL_MS = 10_000;
