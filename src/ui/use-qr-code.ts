/**
 * A QR code drawn in the page (shared by the recharge page's deposit address and the share
 * poster's register link): `qrcode` renders it as an SVG data URL, without any network.
 */
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** The QR code of `text` as an SVG data URL, or null while it is drawn (or without text). */
export function useQrCode(text: string | null): string | null {
  const [drawn, setDrawn] = useState<{ text: string; url: string } | null>(null);
  useEffect(() => {
    if (text === null || text === '') return;
    let live = true;
    QRCode.toString(text, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 2,
      color: { dark: '#17201e', light: '#ffffff' },
    }).then(
      (svg) => {
        if (live) setDrawn({ text, url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      },
      () => {
        // A text too long for a QR code: the text itself and its copy button remain.
      },
    );
    return () => {
      live = false;
    };
  }, [text]);
  return drawn !== null && drawn.text === text ? drawn.url : null;
}

/** The QR code of `text` as a PNG data URL of `size` pixels (for a saved image); rejects when it cannot be drawn. */
export function qrCodePng(text: string, size: number): Promise<string> {
  return QRCode.toDataURL(text, {
    type: 'image/png',
    errorCorrectionLevel: 'M',
    margin: 2,
    width: size,
    color: { dark: '#17201e', light: '#ffffff' },
  });
}
