/** Where a product is stored. */
export enum Warehouse {
  South = 'south',
  North = 'north',
}

export enum Priority {
  Low = 1,
  High = 3,
}

/** A price in one currency. */
export interface Money {
  /**
   * Amount in cents.
   * @type integer
   * @minimum 0
   */
  amount: number;
  /** ISO 4217 currency code. */
  currency: 'USD' | 'EUR';
}

/** A node of the category tree. */
export interface Category {
  /** Category name. */
  name: string;
  /** Sub-categories, as deep as needed. */
  children: Category[];
}

interface Identified {
  /** Stable identifier. */
  id: string;
}

export type Labelled = Identified & {
  /** Label shown to customers. */
  label: string;
};

export interface Page<T> {
  /** The items of this page. */
  items: T[];
  /** How many items there are in all. */
  total: number;
}

/** A product filter; every field narrows the result. */
export interface Filter {
  /**
   * Lowest price in cents.
   * @exclusiveMinimum 0
   * @exclusiveMaximum 1000000
   * @multipleOf 5
   */
  minPrice?: number;
  /**
   * Words that must appear.
   * @minItems 1
   * @maxItems 3
   * @uniqueItems
   */
  words?: string[];
  /**
   * Colour code.
   * @pattern ^#[0-9a-f]{6}$
   * @minLength 7
   * @maxLength 7
   */
  colour?: string;
  /**
   * Contact for alerts.
   * @format email
   */
  alertEmail?: string;
  /**
   * Sort order.
   * @title Sort
   * @default "asc"
   */
  sort?: 'desc' | 'asc';
  /**
   * Old flag, kept for compatibility.
   * @deprecated
   */
  legacy?: boolean;
  /**
   * Internal tuning knob.
   * @hidden
   */
  tuning?: number;
}
