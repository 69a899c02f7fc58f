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
