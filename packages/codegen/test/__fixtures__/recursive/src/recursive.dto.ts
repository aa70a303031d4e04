import { IsArray, IsDate, IsObject, IsOptional, IsString, Length, ValidateBy, ValidateNested, type ValidationOptions } from 'class-validator';

/** A name with a letter in it: a rule only class-validator knows, so it shows where validation runs. */
export function HasLetter(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({
    name: 'hasLetter',
    validator: { validate: (value: unknown) => typeof value === 'string' && /\p{L}/u.test(value), defaultMessage: () => '$property must hold a letter' },
  }, options);
}

/** A category of the shop: recursive directly and through an array. */
export class CategoryDto {
  /** Its name, 1 to 20 characters, with a letter in it. */
  @IsString()
  @Length(1, 20)
  @HasLetter()
  name!: string;

  /** The category above it, if any. */
  @IsOptional()
  @ValidateNested()
  parent?: CategoryDto;

  /** The categories under it. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  children?: CategoryDto[];
}

/** A folder: recursive through a record of sub-folders by name. */
export class FolderDto {
  /** Its name, 1 to 20 characters, with a letter in it. */
  @IsString()
  @Length(1, 20)
  @HasLetter()
  name!: string;

  /** The folders inside it, by name. */
  @IsOptional()
  @IsObject()
  @ValidateNested({ each: true })
  folders?: Record<string, FolderDto>;
}

/** A node of an outline, or a plain line of text. */
export type Outline = OutlineDto | string;

/** A node of an outline: recursive through a union alias. */
export class OutlineDto {
  /** Its title, 1 to 20 characters, with a letter in it. */
  @IsString()
  @Length(1, 20)
  @HasLetter()
  title!: string;

  /** What is under it: nodes, or lines of text. */
  @IsArray()
  @ValidateNested({ each: true })
  items!: Outline[];

  /** The node it continues, or null. */
  @IsOptional()
  @ValidateNested()
  next?: OutlineDto | null;
}

/** A team: mutually recursive with its members. */
export class TeamDto {
  /** The team's name, 1 to 20 characters, with a letter in it. */
  @IsString()
  @Length(1, 20)
  @HasLetter()
  name!: string;

  /** Who is in it. */
  @IsArray()
  @ValidateNested({ each: true })
  members!: MemberDto[];
}

/** A member of a team, who may lead teams of their own. */
export class MemberDto {
  /** The member's name, 1 to 20 characters, with a letter in it. */
  @IsString()
  @Length(1, 20)
  @HasLetter()
  name!: string;

  /** When they joined. */
  @IsDate()
  joined!: Date;

  /** The teams they lead. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  leads?: TeamDto[];
}

/** A message of a thread: a recursive interface, with a date at every depth. */
export interface Message {
  /** What it says. */
  text: string;
  /** When it was sent. */
  at: Date;
  /** The answers to it. */
  replies: Message[];
}
