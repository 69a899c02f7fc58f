import type { OrderMessage } from '@p2p/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChatClient, chatQueries } from '../api/order-messages';
import c from './chat.module.css';

/** The blob URL of a fetched Blob, revoked when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => {
      URL.revokeObjectURL(u);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/**
 * A chat image (DECISIONS §12): fetched through the API client with the bearer token (an <img src> to the
 * API could not send the Authorization header) and shown from a blob URL, in a box of the image's own
 * aspect ratio reserved before it arrives (no layout jump). A tap opens it large in a modal <dialog>
 * (Escape, the close button or a tap closes it).
 */
export function ChatImage({
  message,
  client,
  alt,
}: {
  message: OrderMessage;
  client: ChatClient;
  alt: string;
}) {
  const { t } = useTranslation('chat');
  const q = useQuery(chatQueries.image(client, message));
  const url = useObjectUrl(q.data);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const img = message.image;
  if (!img) return null;
  const ratio = `${img.width} / ${img.height}`;
  return (
    <>
      <button
        type="button"
        className={c.thumb}
        style={{ aspectRatio: ratio }}
        onClick={() => dialogRef.current?.showModal()}
        disabled={!url}
        aria-label={t('viewLarge')}
        data-testid="chat-image"
        data-loaded={Boolean(url)}
      >
        {url ? (
          <img src={url} alt={alt} width={img.width} height={img.height} className={c.thumbImg} />
        ) : (
          <span className={c.thumbNote}>{q.isError ? t('imageFailed') : t('imageLoading')}</span>
        )}
      </button>
      <dialog
        ref={dialogRef}
        className={c.viewer}
        aria-label={alt}
        onClick={() => dialogRef.current?.close()}
        onKeyDown={(e) => e.key === 'Enter' && dialogRef.current?.close()}
        data-testid="chat-viewer"
      >
        {url && <img src={url} alt={alt} className={c.viewerImg} />}
        <button type="button" className={c.viewerClose} data-testid="chat-viewer-close">
          {t('closeViewer')}
        </button>
      </dialog>
    </>
  );
}
