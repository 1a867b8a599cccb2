import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsDate,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Description } from 'mcp-reflect';

export enum Units {
  Metric = 'metric',
  Imperial = 'imperial',
}

export class ForecastQuery {
  @Description('City name, e.g. Paris')
  @IsString()
  @Length(1, 80)
  city!: string;

  @Description('Number of days, 1 to 14')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(14)
  days?: number;

  @IsOptional()
  @IsEnum(Units)
  units?: Units;
}

export class Forecast {
  @IsString() city!: string;
  @IsInt() high!: number;
  @IsInt() low!: number;
  @IsEnum(Units) units!: Units;
}

export class Stop {
  @IsString() @Length(1, 80) city!: string;
  @IsInt() @Min(1) @Max(30) nights!: number;
  @IsOptional() @IsString() note?: string;
}

export class TripPlan {
  @Description('Who to send the summary to')
  @IsEmail()
  email!: string;

  @Description('When the trip starts (ISO 8601)')
  @IsDate()
  start!: Date;

  @Description('Stops in order, at most 5')
  @ValidateNested({ each: true })
  @Type(() => Stop)
  @ArrayMaxSize(5)
  stops!: Stop[];

  @IsOptional()
  @IsString({ each: true })
  tags?: string[];
}
