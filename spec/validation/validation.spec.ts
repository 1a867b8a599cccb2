import 'reflect-metadata';
import {
  IsInt,
  IsOptional,
  IsString,
  Min,
  MinLength,
  registerDecorator,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidationOptions,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Args, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

class Address {
  @IsString() city!: string;
  @IsInt() zip!: number;
}

class Profile {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Address) address!: Address;
  @IsOptional() @IsString({ each: true }) tags?: string[];
}

class CreateUser {
  @IsString() @MinLength(3) name!: string;
  @IsInt() @Min(18) age!: number;
}

class Stop {
  @IsString() city!: string;
  @IsInt() @Min(1) nights!: number;
}

class Trip {
  @IsString() @MinLength(1) title!: string;
  @ValidateNested({ each: true }) @Type(() => Stop) stops!: Stop[];
}

@ValidatorConstraint({ name: 'isEven', async: false })
class IsEvenConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be even`;
  }
}

function IsPalindrome(options?: ValidationOptions): PropertyDecorator {
  return (object, propertyName) =>
    registerDecorator({
      name: 'isPalindrome',
      target: object.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value === [...value].reverse().join(''),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must read the same backwards`,
      },
    });
}

class Pair {
  @IsInt() @Validate(IsEvenConstraint) n!: number;
  @IsString() @IsPalindrome() word!: string;
}

class Leg {
  @IsString() @IsPalindrome() code!: string;
}

class Route {
  @ValidateNested({ each: true }) @Type(() => Leg) legs!: Leg[];
}

const calls: Record<string, unknown[]> = {};

@Injectable()
class ValidationTools {
  @Tool()
  coerce(
    @Param() n: number,
    @Param() flag: boolean,
    @Param() label: string,
    @Param('count', { type: 'integer' }) count: number,
    @Param('address', { type: Address }) address: Address,
    @Param('tags', { type: [String] }) tags: string[],
  ) {
    calls.coerce = [n, flag, label, count, address, tags];
    return 'ok';
  }

  @Tool()
  profile(@Args() profile: Profile) {
    calls.profile = [profile];
    return 'ok';
  }

  @Tool({ name: 'create_user' })
  createUser(@Args() user: CreateUser) {
    calls.create_user = [user];
    return 'ok';
  }

  @Tool({ name: 'plan_trip' })
  planTrip(@Args() trip: Trip) {
    calls.plan_trip = [trip];
    return 'ok';
  }

  @Tool()
  greet(@Param('name', { default: 'world' }) name: string, @Param('loud', { optional: true }) loud: boolean) {
    calls.greet = [name, loud];
    return 'ok';
  }

  @Tool()
  echo(@Param() text: string) {
    calls.echo = [text];
    return 'ok';
  }

  @Tool()
  pair(@Args() pair: Pair) {
    calls.pair = [pair];
    return 'ok';
  }

  @Tool()
  route(@Args() route: Route) {
    calls.route = [route];
    return 'ok';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'lenient', version: '1.0.0' })], providers: [ValidationTools] })
class LenientModule {}

@Module({
  imports: [McpModule.forRoot({ name: 'strict', version: '1.0.0', strictInputValidation: true })],
  providers: [ValidationTools],
})
class StrictModule {}

type CallResult = Awaited<ReturnType<TestClient['callTool']>>;

function textOf(result: CallResult): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

async function accepted(client: TestClient, name: string, args?: Record<string, unknown>): Promise<unknown[]> {
  delete calls[name];
  const result = await client.callTool(args === undefined ? { name } : { name, arguments: args });
  expect(textOf(result)).toBe('ok');
  expect(result.isError).toBeFalsy();
  return calls[name];
}

async function rejected(client: TestClient, name: string, args?: Record<string, unknown>): Promise<string> {
  delete calls[name];
  const result = await client.callTool(args === undefined ? { name } : { name, arguments: args });
  expect(result.isError).toBe(true);
  expect(calls[name]).toBeUndefined();
  return textOf(result);
}

describe('lenient validation (the default)', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(LenientModule);
  });
  afterAll(() => client.close());

  it('coerces numeric and boolean strings, numbers for strings, and parses JSON-encoded objects and arrays', async () => {
    const [n, flag, label, count, address, tags] = await accepted(client, 'coerce', {
      n: '10',
      flag: 'true',
      label: 5,
      count: '3',
      address: '{"city":"Oslo","zip":"123"}',
      tags: '["a","b"]',
    });
    expect([n, flag, label, count, tags]).toEqual([10, true, '5', 3, ['a', 'b']]);
    expect(address).toBeInstanceOf(Address);
    expect(address).toEqual({ city: 'Oslo', zip: 123 });
  });

  it('coerces "false", negative and fractional numbers', async () => {
    const [n, flag] = await accepted(client, 'coerce', {
      n: '-2.5',
      flag: 'false',
      label: 'x',
      count: 1,
      address: { city: 'a', zip: 1 },
      tags: [],
    });
    expect([n, flag]).toEqual([-2.5, false]);
  });

  it('leaves values that do not coerce cleanly for the validator to reject', async () => {
    expect(
      await rejected(client, 'coerce', {
        n: 'ten',
        flag: 'yes',
        label: true,
        count: '3.5',
        address: '{not json',
        tags: 'a,b',
      }),
    ).toBe(
      'Invalid arguments for tool coerce: n: must be a number; flag: must be a boolean; label: must be a string; ' +
        'count: must be an integer; address: must be an object; tags: must be an array',
    );
  });

  it('does not coerce a numeric string that overflows to Infinity (JSON numbers are finite)', async () => {
    expect(
      await rejected(client, 'coerce', { n: '1e400', flag: true, label: 'x', count: '-1e400', address: { city: 'a', zip: 1 }, tags: [] }),
    ).toBe('Invalid arguments for tool coerce: n: must be a number; count: must be an integer');
  });

  it('drops unknown keys, top-level and nested', async () => {
    const [profile] = await accepted(client, 'profile', {
      name: 'Ada',
      address: { city: 'London', zip: 1, planet: 'Earth' },
      bogus: true,
    });
    expect(profile).toBeInstanceOf(Profile);
    expect(profile).toEqual({ name: 'Ada', address: { city: 'London', zip: 1 } });
    expect(Object.keys(profile as object)).toEqual(['name', 'address']);
    expect(await accepted(client, 'echo', { text: 'hi', extra: 1 })).toEqual(['hi']);
  });

  it('coerces inside nested objects and arrays of a DTO', async () => {
    const [profile] = await accepted(client, 'profile', { name: 7, address: { city: 'Rome', zip: '42' }, tags: [1, 'b'] });
    expect(profile).toEqual({ name: '7', address: { city: 'Rome', zip: 42 }, tags: ['1', 'b'] });
  });
});

describe('strict validation (strictInputValidation: true)', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(StrictModule);
  });
  afterAll(() => client.close());

  it('does not coerce', async () => {
    expect(
      await rejected(client, 'coerce', {
        n: '10',
        flag: 'true',
        label: 5,
        count: '3',
        address: '{"city":"Oslo","zip":123}',
        tags: '["a"]',
      }),
    ).toBe(
      'Invalid arguments for tool coerce: n: must be a number; flag: must be a boolean; label: must be a string; ' +
        'count: must be an integer; address: must be an object; tags: must be an array',
    );
  });

  it('rejects unknown keys, top-level and nested', async () => {
    expect(
      await rejected(client, 'profile', { name: 'Ada', address: { city: 'London', zip: 1, planet: 'Earth' }, bogus: true }),
    ).toBe('Invalid arguments for tool profile: bogus: is not an accepted argument; address.planet: is not an accepted property');
    expect(await rejected(client, 'echo', { text: 'hi', extra: 1 })).toBe(
      'Invalid arguments for tool echo: extra: is not an accepted argument',
    );
  });

  it('accepts exact values and passes them through', async () => {
    const [n, flag, label, count, address, tags] = await accepted(client, 'coerce', {
      n: 10,
      flag: true,
      label: '5',
      count: 3,
      address: { city: 'Oslo', zip: 123 },
      tags: ['a'],
    });
    expect([n, flag, label, count, tags]).toEqual([10, true, '5', 3, ['a']]);
    expect(address).toBeInstanceOf(Address);
  });
});

describe.each([
  ['lenient', LenientModule],
  ['strict', StrictModule],
] as const)('error messages (%s)', (_mode, AppModule) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(AppModule);
  });
  afterAll(() => client.close());

  it('names every failed field in one line', async () => {
    expect(await rejected(client, 'create_user', { name: 'Al', age: 16 })).toBe(
      'Invalid arguments for tool create_user: name: must be at least 3 characters long; age: must not be less than 18',
    );
    expect(await rejected(client, 'create_user', {})).toBe(
      'Invalid arguments for tool create_user: name: is required; age: is required',
    );
  });

  it('gives nested paths as a[0].b', async () => {
    expect(
      await rejected(client, 'plan_trip', {
        title: '',
        stops: [{ city: 'Lyon', nights: 0 }, { city: 'Nice', nights: 2 }, { nights: 1 }],
      }),
    ).toBe(
      'Invalid arguments for tool plan_trip: title: must be at least 1 character long; ' +
        'stops[0].nights: must not be less than 1; stops[2].city: is required',
    );
  });

  it('treats a missing arguments key as {}', async () => {
    expect(await accepted(client, 'greet')).toEqual(['world', undefined]);
    expect(await rejected(client, 'create_user')).toBe(
      'Invalid arguments for tool create_user: name: is required; age: is required',
    );
  });

  it('still enforces custom class-validator constraints that JSON Schema cannot express', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'pair')!.inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' }, word: { type: 'string' } },
      required: ['n', 'word'],
      additionalProperties: false,
    });
    expect(await rejected(client, 'pair', { n: 3, word: 'abc' })).toBe(
      'Invalid arguments for tool pair: n: n must be even; word: word must read the same backwards',
    );
    const [pair] = await accepted(client, 'pair', { n: 4, word: 'abba' });
    expect(pair).toBeInstanceOf(Pair);
    expect(pair).toEqual({ n: 4, word: 'abba' });
  });

  it('runs schema validation first: a schema failure is reported before custom constraints run', async () => {
    expect(await rejected(client, 'pair', { n: 2.5, word: 'abc' })).toBe('Invalid arguments for tool pair: n: must be an integer');
  });

  it('enforces custom constraints inside arrays of nested DTOs, with the same path format', async () => {
    expect(await rejected(client, 'route', { legs: [{ code: 'aba' }, { code: 'xy' }] })).toBe(
      'Invalid arguments for tool route: legs[1].code: code must read the same backwards',
    );
    const [route] = await accepted(client, 'route', { legs: [{ code: 'aba' }] });
    expect((route as Route).legs[0]).toBeInstanceOf(Leg);
  });
});
