/** Small inline flags: no external images, crisp at any size. */
export function Flag({ language }: { language: string }) {
  switch (language) {
    case 'it':
      return (
        <svg className="flag" viewBox="0 0 3 2" aria-hidden="true">
          <rect width="1" height="2" fill="#009246" />
          <rect x="1" width="1" height="2" fill="#fff" />
          <rect x="2" width="1" height="2" fill="#ce2b37" />
        </svg>
      );
    case 'en':
      return (
        <svg className="flag" viewBox="0 0 60 40" aria-hidden="true">
          <clipPath id="flag-en-clip">
            <rect width="60" height="40" />
          </clipPath>
          <g clipPath="url(#flag-en-clip)">
            <rect width="60" height="40" fill="#012169" />
            <path d="M0,0 60,40 M60,0 0,40" stroke="#fff" strokeWidth="8" />
            <path d="M0,0 60,40 M60,0 0,40" stroke="#c8102e" strokeWidth="3" />
            <path d="M30,0 V40 M0,20 H60" stroke="#fff" strokeWidth="12" />
            <path d="M30,0 V40 M0,20 H60" stroke="#c8102e" strokeWidth="7" />
          </g>
        </svg>
      );
    case 'es':
      return (
        <svg className="flag" viewBox="0 0 3 2" aria-hidden="true">
          <rect width="3" height="2" fill="#aa151b" />
          <rect y="0.5" width="3" height="1" fill="#f1bf00" />
        </svg>
      );
    case 'jp':
      return (
        <svg className="flag" viewBox="0 0 3 2" aria-hidden="true">
          <rect width="3" height="2" fill="#fff" />
          <circle cx="1.5" cy="1" r="0.6" fill="#bc002d" />
        </svg>
      );
    default:
      return null;
  }
}
