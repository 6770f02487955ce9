/** A status as a tag whose text keeps AA contrast (antd's preset tag colours are too light). */
import { Tag } from 'antd';
import type { ReactNode } from 'react';

export type Tone = 'plain' | 'warn' | 'ok' | 'info' | 'bad';

export function StatusTag({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <Tag className={`console-tone-${tone}`}>{children}</Tag>;
}
