import type { ReactNode } from 'react';

/** Each language's flag: its width and height, its background and what is drawn on it. */
const FLAGS: Record<string, { size: [number, number]; background: string; marks: ReactNode }> = {
  it: {
    size: [3, 2],
    background: '#fff',
    marks: (
      <>
        <rect width="1" height="2" fill="#009246" />
        <rect x="2" width="1" height="2" fill="#ce2b37" />
      </>
    ),
  },
  en: {
    size: [60, 40],
    background: '#012169',
    marks: (
      <>
        <clipPath id="flag-en-clip">
          <rect width="60" height="40" />
        </clipPath>
        <g clipPath="url(#flag-en-clip)">
          <path d="M0,0 60,40 M60,0 0,40" stroke="#fff" strokeWidth="8" />
          <path d="M0,0 60,40 M60,0 0,40" stroke="#c8102e" strokeWidth="3" />
          <path d="M30,0 V40 M0,20 H60" stroke="#fff" strokeWidth="12" />
          <path d="M30,0 V40 M0,20 H60" stroke="#c8102e" strokeWidth="7" />
        </g>
      </>
    ),
  },
  es: { size: [3, 2], background: '#aa151b', marks: <rect y="0.5" width="3" height="1" fill="#f1bf00" /> },
  jp: { size: [3, 2], background: '#fff', marks: <circle cx="1.5" cy="1" r="0.6" fill="#bc002d" /> },
};

/** Small inline flags: no external images, crisp at any size. */
export function Flag({ language }: { language: string }) {
  const flag = FLAGS[language];
  if (!flag) return null;
  const [width, height] = flag.size;
  return (
    <svg className="flag" viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
      <rect width={width} height={height} fill={flag.background} />
      {flag.marks}
    </svg>
  );
}
