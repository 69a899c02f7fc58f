import { CHAT_TEXT_MAX, type OrderMessage } from '@p2p/contract';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cardClassName } from '../../../components/ui/Card';
import { errorText } from '../../../lib/errors';
import {
  type ChatClient,
  chatQueries,
  memberChatClient,
  postChatImage,
  postChatText,
} from '../api/order-messages';
import { imageProblem } from '../chat-rules';
import { ChatImage } from './ChatImage';
import c from './chat.module.css';

/** How many messages the panel shows at first and adds with each "load earlier". */
const WINDOW = 50;

/** Whose screen the chat is on: the buyer's, the seller's or an operator's in the console. */
export type ChatSide = 'buyer' | 'seller' | 'operator';

/**
 * The order chat panel (DECISIONS §12): messages oldest first, the newest 50 shown and "load
 * earlier" for the rest; own messages on the right, the other party's on the left, system messages (the
 * order's state changes) centred and muted, operator messages marked. Text is rendered as text, never
 * HTML. Images are fetched with the bearer token and shown from blob URLs (ChatImage). A text field
 * (1-1000 characters, counter), a send button and an image button (JPEG/PNG/WebP up to 5 MB, checked
 * before the upload). Updates come from the live `message` event (use-live-events.ts) or `pollMs`.
 */
export function OrderChat({
  orderId,
  side,
  client = memberChatClient,
  pollMs,
}: {
  orderId: number;
  side: ChatSide;
  client?: ChatClient;
  /** Refetch period for screens without the live stream (the console). */
  pollMs?: number;
}) {
  const { t } = useTranslation('chat');
  const q = useInfiniteQuery(chatQueries.messages(client, orderId, { pollMs }));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  // The API pages forward from the oldest: read on to the newest (rate limits keep chats short).
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const [shown, setShown] = useState(WINDOW);
  const pages = q.data?.pages ?? [];
  const messages = pages.flatMap((p) => p.list);
  const writable = pages[pages.length - 1]?.writable ?? false;
  const visible = messages.slice(Math.max(0, messages.length - shown));
  const status = [...messages].reverse().find((m) => m.kind === 'SYSTEM')?.status ?? null;
  const tip = side === 'buyer' && (status === 'REQUESTED' || status === 'PAID');
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = messages[messages.length - 1]?.messageId;
  // A new last message scrolls the list (not the page) to the bottom.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el && lastId !== undefined) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  return (
    <section
      className={`${cardClassName} ${c.panel}`}
      aria-labelledby={`chat-${orderId}`}
      data-testid="order-chat"
    >
      <h2 id={`chat-${orderId}`} className={c.title}>
        {t('title')}
      </h2>
      <ol
        ref={listRef}
        className={c.list}
        aria-live="polite"
        data-testid="chat-list"
        data-count={messages.length}
      >
        {messages.length > visible.length && (
          <li className={c.earlierRow}>
            <button
              type="button"
              className={c.earlier}
              onClick={() => setShown((n) => n + WINDOW)}
              data-testid="chat-earlier"
            >
              {t('loadEarlier')}
            </button>
          </li>
        )}
        {q.isPending && <li className={c.note}>{t('loading')}</li>}
        {q.isError && !q.data && (
          <li className={c.note} role="alert">
            {t('loadFailed')}{' '}
            <button type="button" className={c.earlier} onClick={() => void q.refetch()}>
              {t('retry')}
            </button>
          </li>
        )}
        {q.data && messages.length === 0 && <li className={c.note}>{t('empty')}</li>}
        {visible.map((m) => (
          <Message key={m.messageId} m={m} client={client} />
        ))}
      </ol>
      {q.data &&
        (writable ? (
          <Composer orderId={orderId} client={client} tip={tip} />
        ) : (
          <p className={c.closed} data-testid="chat-closed">
            {side === 'operator' ? t('closedOps') : t('closed')}
          </p>
        ))}
    </section>
  );
}

function Message({ m, client }: { m: OrderMessage; client: ChatClient }) {
  const { t } = useTranslation('chat');
  const time = format(new Date(m.createdAt), 'HH:mm');
  if (m.kind === 'SYSTEM') {
    return (
      <li className={c.system} data-testid="chat-system" data-status={m.status ?? ''}>
        <span>{m.status ? t(`system.${m.status}`) : ''}</span> <time dateTime={m.createdAt}>{time}</time>
      </li>
    );
  }
  const who = m.mine ? t('you') : t(`author.${m.author}`);
  const operator = m.author === 'OPERATOR';
  return (
    <li
      className={`${c.row} ${m.mine ? c.mine : c.theirs}`}
      data-testid="chat-message"
      data-mine={m.mine}
      data-author={m.author}
    >
      {!m.mine && (
        <span className={`${c.who} ${operator ? c.whoOperator : ''}`}>
          {operator ? t('operatorMark') : who}
        </span>
      )}
      <div className={c.line}>
        <div
          className={`${c.bubble} ${operator ? c.operator : ''} ${m.kind === 'IMAGE' ? c.imageBubble : ''}`}
        >
          {m.kind === 'IMAGE' && m.image ? (
            <ChatImage message={m} client={client} alt={t('imageAlt', { who })} />
          ) : (
            // plain text: React escapes it; no HTML, no links made of it
            <p className={c.text}>{m.text}</p>
          )}
        </div>
        <time className={c.time} dateTime={m.createdAt}>
          {time}
        </time>
      </div>
    </li>
  );
}

/** The input row: tip, text field with counter, image and send buttons, one reserved error line. */
function Composer({ orderId, client, tip }: { orderId: number; client: ChatClient; tip: boolean }) {
  const { t } = useTranslation('chat');
  const qc = useQueryClient();
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<'text' | 'image' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: chatQueries.messages(client, orderId).queryKey });
  const trimmed = text.trim();
  const canSend = trimmed.length > 0 && text.length <= CHAT_TEXT_MAX && busy === null;

  const send = async () => {
    if (!canSend) return;
    setBusy('text');
    setError(null);
    try {
      await postChatText(client, orderId, text);
      setText('');
      await refresh();
    } catch (err) {
      setError(errorText(err, 'chat:errors.sendFailed'));
    } finally {
      setBusy(null);
    }
  };

  const upload = async (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) {
      setError(t(`errors.${problem.code}`, { size: problem.sizeMb }));
      return;
    }
    setBusy('image');
    setError(null);
    try {
      await postChatImage(client, orderId, file);
      await refresh();
    } catch (err) {
      setError(errorText(err, 'chat:errors.uploadFailed'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <form
      className={c.composer}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {tip && (
        <p className={c.tip} data-testid="chat-tip">
          <strong>{t('tipReceipt')}</strong> {t('tipReceiptNote')}
        </p>
      )}
      <label className={c.srOnly} htmlFor={inputId}>
        {t('inputLabel')}
      </label>
      <div className={c.inputRow}>
        <button
          type="button"
          className={c.iconButton}
          onClick={() => fileRef.current?.click()}
          disabled={busy !== null}
          aria-label={t('attach')}
          title={t('attach')}
          data-testid="chat-attach"
        >
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" fill="none">
            <rect x="3" y="5" width="18" height="14" rx="2" stroke="currentColor" strokeWidth="2" />
            <circle cx="9" cy="10" r="1.8" fill="currentColor" />
            <path d="M4 18l5-5 4 4 3-3 4 4" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
          </svg>
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          className={c.srOnly}
          tabIndex={-1}
          onChange={(e) => void upload(e.target.files?.[0])}
          data-testid="chat-file"
        />
        <textarea
          id={inputId}
          className={c.input}
          value={text}
          rows={1}
          maxLength={CHAT_TEXT_MAX}
          placeholder={t('placeholder')}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            // Enter sends on a keyboard; Shift+Enter (and the IME composing Korean) makes a new line
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          aria-describedby={`${inputId}-msg`}
          data-testid="chat-input"
        />
        <button type="submit" className={c.send} disabled={!canSend} data-testid="chat-send">
          {busy === 'text' ? t('sending') : t('send')}
        </button>
      </div>
      <div id={`${inputId}-msg`} className={c.meta}>
        <span
          className={error ? c.error : c.status}
          role={error ? 'alert' : undefined}
          data-testid="chat-error"
        >
          {error ?? (busy === 'image' ? t('uploading') : '')}
        </span>
        <span className={c.counter} data-testid="chat-counter">
          {t('counter', { count: text.length, max: CHAT_TEXT_MAX })}
        </span>
      </div>
    </form>
  );
}
