import type { ReactNode } from 'react';

type OptionValue = string | number;

/** How an item becomes its option's value: the item itself when it is a string or a number. */
type ValueOf<Item> = [Item] extends [OptionValue]
  ? { value?: (item: Item) => OptionValue }
  : { value: (item: Item) => OptionValue };

/**
 * The `<option>`s of a select, one an item, keyed by their value: `label` is what the reader sees
 * (the value itself when left out).
 */
export function Options<Item>({
  items,
  value = (item) => item as OptionValue,
  label = (item) => value(item),
}: {
  items: readonly Item[];
  label?: (item: Item) => ReactNode;
} & ValueOf<Item>) {
  return (
    <>
      {items.map((item) => (
        <option key={value(item)} value={value(item)}>
          {label(item)}
        </option>
      ))}
    </>
  );
}
