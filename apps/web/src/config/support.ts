/**
 * Customer-support channels for /findid and /contact (SPEC §2: a messaging app and e-mail). The real
 * addresses are deployment settings; these defaults are placeholders for development.
 */
export const SUPPORT = {
  chatUrl: import.meta.env.VITE_SUPPORT_CHAT_URL ?? 'https://open.kakao.com/o/p2pcoinmarket',
  email: import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@p2pcoinmarket.example',
};
