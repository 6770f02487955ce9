/**
 * antd's Table, scrolling sideways inside itself when wider than the screen (phones, long
 * audit details), with that scrolling area reachable by keyboard: antd does not make it
 * focusable, so a row without a button could not be scrolled to without a mouse.
 */
import { Table, type TableProps } from 'antd';
import { useEffect, useRef } from 'react';

export function ConsoleTable<T extends object>({ label, ...props }: TableProps<T> & { label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const region of box.current?.querySelectorAll('.ant-table-content') ?? []) {
      region.setAttribute('tabindex', '0');
      region.setAttribute('role', 'region');
      region.setAttribute('aria-label', label);
    }
  });
  return (
    <div ref={box}>
      <Table<T> pagination={false} scroll={{ x: 'max-content' }} {...props} />
    </div>
  );
}
