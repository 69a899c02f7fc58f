/** Small line icons used by the header (24 px grid, currentColor). */
const common = {
  width: 22,
  height: 22,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
};

export const BackIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M15 5l-7 7 7 7" />
  </svg>
);
export const HomeIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M4 11l8-7 8 7v8a1 1 0 0 1-1 1h-4v-6H9v6H5a1 1 0 0 1-1-1z" />
  </svg>
);
export const CloseIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
export const ChevronDown = () => (
  <svg {...common} width={14} height={14} aria-hidden="true">
    <path d="M6 9l6 6 6-6" />
  </svg>
);
export const TradeIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M4 8h13l-3-3M20 16H7l3 3" />
  </svg>
);
export const WalletIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M4 7a2 2 0 0 1 2-2h11v4M4 7v11a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1V9H6a2 2 0 0 1-2-2zM16 14h1" />
  </svg>
);
export const UserIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 20a8 8 0 0 1 16 0" />
  </svg>
);
