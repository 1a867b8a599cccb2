import { IsString, MinLength } from 'class-validator';

/** How the traveller moves between cities. */
export type Transport = 'train' | 'plane' | 'car';

export interface Budget {
  /** Amount per day */
  perDay: number;
  /** ISO 4217 code, e.g. EUR */
  currency: string;
}

export class Stop {
  /**
   * City name
   * @example "Lisbon"
   */
  @IsString()
  @MinLength(2)
  city!: string;

  /** Nights in this city */
  nights = 1;

  /** When the stay starts, if known */
  arrival: Date | null = null;
}
