import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsDateString, IsEmail, IsEnum, IsIn, IsInt, IsISO8601,
  IsNumber, IsOptional, IsPositive, IsString, IsUrl, IsUUID, Length, Matches, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { Warehouse } from './catalog.types';

/** Size of a parcel. */
export class DimensionsInput {
  /** Width in centimetres. */
  @IsNumber()
  @IsPositive()
  width!: number;

  /** Height in centimetres. */
  @Max(300)
  @IsNumber()
  @Min(1)
  height!: number;
}

export class CreateProductInput {
  /** Product name as shown in the shop. */
  @IsString()
  @Length(3, 80)
  name!: string;

  /** Stock keeping unit, like ABC-1234. */
  @Matches(/^[A-Z]{3}-\d{4}$/)
  @IsString()
  sku!: string;

  /**
   * Units in stock.
   * @maximum 10000
   */
  @Max(10000)
  @Min(0)
  @IsInt()
  quantity!: number;

  /** Contact e-mail of the supplier. */
  @IsEmail()
  contact!: string;

  /** Product page, with https://. */
  @IsOptional()
  @IsUrl({ require_protocol: true })
  homepage?: string;

  /** Supplier's identifier of the product. */
  @IsUUID()
  supplierId!: string;

  /** When the product was released, ISO 8601. */
  @IsDateString()
  releasedAt!: string;

  /** When the product goes on sale, ISO 8601. */
  @IsOptional()
  @IsISO8601()
  onSaleAt?: string;

  /** Colour of the product. */
  @IsIn(['red', 'green', 'blue'])
  colour!: string;

  @IsEnum(Warehouse)
  warehouse!: Warehouse;

  /** Search tags, each at most 20 characters. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(20, { each: true })
  @MinLength(2, { each: true })
  tags!: string[];

  /** Parcel size. */
  @ValidateNested()
  @Type(() => DimensionsInput)
  dimensions!: DimensionsInput;

  /** Whether the product is listed. */
  @IsBoolean()
  active!: boolean;
}
