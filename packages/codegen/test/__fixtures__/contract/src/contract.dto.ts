import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsDate, IsEmail, IsEnum, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString,
  Length, Matches, Max, MaxLength, Min, ValidateBy, ValidateNested, type ValidationOptions,
} from 'class-validator';

/** How urgent an order is. */
export enum Priority {
  Low = 1,
  Normal = 2,
  High = 3,
}

/** How the customer is told about the order. */
export enum Channel {
  Email = 'email',
  Sms = 'sms',
}

/** A coupon code: SAVE followed by a multiple of 5 from 5 to 50, like SAVE15. */
export function IsCoupon(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({
    name: 'isCoupon',
    validator: {
      validate: (value: unknown) => {
        const match = typeof value === 'string' ? /^SAVE(\d{1,2})$/.exec(value) : null;
        return match !== null && Number(match[1]) % 5 === 0 && Number(match[1]) >= 5 && Number(match[1]) <= 50;
      },
      defaultMessage: () => '$property must be SAVE followed by a multiple of 5 from 5 to 50',
    },
  }, options);
}

/** A postal address. */
export class AddressDto {
  /** Street and house number, any script. */
  @IsString()
  @Length(1, 40)
  street!: string;

  /** Postal code, five digits. */
  @Matches(/^\d{5}$/)
  zip!: string;

  /** Country, as a two-letter code. */
  @IsIn(['DE', 'FR', 'PT'])
  country!: string;
}

/** One line of an order. */
export class LineDto {
  /** Stock keeping unit, SKU- and up to four digits. */
  @Matches(/^SKU-\d{1,4}$/)
  sku!: string;

  /** Units, 1 to 99. */
  @IsInt()
  @Min(1)
  @Max(99)
  qty!: number;

  /**
   * Unit price in euros, to the cent.
   * @multipleOf 0.01
   */
  @IsNumber()
  @Min(0)
  @Max(1000)
  unitPrice!: number;
}

export class CreateOrderDto {
  /** The customer's e-mail address. */
  @IsEmail()
  email!: string;

  /**
   * Where to post status changes.
   * @format uri
   */
  @IsOptional()
  @IsString()
  callback?: string;

  /** Where to ship. */
  @ValidateNested()
  address!: AddressDto;

  /** Where to send the invoice, when not the shipping address; null to clear it. */
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  billing?: AddressDto | null;

  /** What is ordered, one to four lines. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  @ValidateNested({ each: true })
  lines!: LineDto[];

  /** How urgent it is. */
  @IsEnum(Priority)
  priority!: Priority;

  /** How to notify the customer. */
  @IsOptional()
  @IsEnum(Channel)
  channel?: Channel;

  /** Gift wrapping, if any. */
  @IsOptional()
  @IsString()
  wrap?: 'paper' | 'box';

  /** When the order must arrive. */
  @IsOptional()
  @IsDate()
  dueAt?: Date;

  /** Numeric attributes by name, such as weight or volume. */
  @IsOptional()
  @IsObject()
  attributes?: Record<string, number>;

  /** How many updates to keep, 1 to 100; 20 when left out. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  keep: number = 20;

  /** A note for the courier, up to 20 characters, any script; null for none. */
  @IsOptional()
  @IsString()
  @MaxLength(20)
  note?: string | null;

  /** A coupon code. */
  @IsOptional()
  @IsCoupon()
  coupon?: string;
}

/** A category of the shop, with the categories under it: a recursive DTO. */
export class CategoryDto {
  /** Its name, 1 to 20 characters, any script. */
  @IsString()
  @Length(1, 20)
  name!: string;

  /** How many products it holds, 0 to 1000. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  products?: number;

  /** When it opened. */
  @IsOptional()
  @IsDate()
  opened?: Date;

  /** The categories under it, up to three. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  children?: CategoryDto[];

  /** Categories it links to, by name. */
  @IsOptional()
  @IsObject()
  @ValidateNested({ each: true })
  links?: Record<string, CategoryDto>;
}

/** Where a category is filed. */
export class FileCategoryDto {
  /** The category, with everything under it. */
  @ValidateNested()
  category!: CategoryDto;

  /** The category it goes under, or null for the top. */
  @IsOptional()
  @ValidateNested()
  under?: CategoryDto | null;
}
