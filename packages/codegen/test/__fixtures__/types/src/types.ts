/** Identifier of a user. */
export type UserId = string & { readonly __brand: 'UserId' };

type Brand<B extends string> = { readonly __brand: B };

export type Cents = number & Brand<'Cents'>;

/** A size name; any other string is accepted too. */
export type Size = 'small' | 'large' | (string & {});

/** A label on a product. */
export interface Tag {
  /** Tag name. */
  name: string;
}

/** Tags of a product. */
export interface Tags extends Array<Tag> {}

export interface Labels extends ReadonlyArray<string> {}

/** Words, as a class. */
export class WordArray extends Array<string> {}

/**
 * A lowercase slug.
 * @pattern ^[a-z]+$
 * @maxLength 20
 */
export type Slug = string;

/**
 * A slug of at least three letters.
 * @minLength 3
 */
export type LongSlug = Slug;

/** A page of the site. */
export interface Entry {
  /** Where the page lives. */
  slug: Slug;
  /**
   * Its parent's slug.
   * @maxLength 10
   */
  parent: Slug;
  alias: LongSlug;
  /** A note, or null. */
  note?: Slug | null;
}

/** An e-mail or a phone number, never both. */
export type Contact = { /** E-mail address. */ email: string; phone?: never } | { email?: never; /** Phone number. */ phone: string };

/** A box; its one-line JSDoc carries tags. */
export interface Box { /** Width in cm. @minimum 1 */ width: number; /** Height in cm. @maximum 10 */ height: number }

/** A point on the plane. */
export interface Point { /** Horizontal. */ x: number; /** Vertical. */ y: number }

const secret = Symbol('secret');

/** A record with symbol-keyed members. */
export interface Symbolic {
  /** Its name. */
  name: string;
  [secret]: string;
  readonly [Symbol.toStringTag]: string;
}

/** Settings. */
export interface Settings {
  /** Documented. */
  documented: string;
  undocumented: string;
  /** Nested. */
  nested: { inner: number };
}

/** Labels with a reserved key that must never be sent. */
export interface Labelled {
  [key: string]: string | undefined;
  /** Reserved for the system. */
  reserved?: never;
}

/** Any JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A number, or a list of expressions. */
export type Expr = number | Expr[];
