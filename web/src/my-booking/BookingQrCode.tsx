import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** The booking reference as a QR code, for the staff on site; an SVG image, drawn in the browser. */
export function BookingQrCode({ reference, label }: { reference: string; label: string }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    QRCode.toString(reference, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(
      (svg) => active && setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => active && setSource(null),
    );
    return () => {
      active = false;
    };
  }, [reference]);
  if (!source) return <div className="my-booking-qr" aria-hidden="true" />;
  return (
    <img
      className="my-booking-qr"
      src={source}
      alt={label}
      width={176}
      height={176}
      data-testid="booking-qr"
    />
  );
}
