import 'reflect-metadata';
import { IsArray, IsDefined, IsString } from 'class-validator';
import {
  Args,
  Field,
  BootstrapErrorCode,
  Module,
  Param,
  Tool,
} from 'mcp-reflect';
import { bootstrapFailure, failureOf } from '../support/bootstrap';

/** Bootstraps a fresh application around `providers` and returns the error it fails with. */


const unreflectableCause =
  `Cause: TypeScript erases interfaces, unions, type aliases, 'any', mixed enums and type-only imports (import type) ` +
  `to Object at runtime, so there is nothing to build a schema from.\n`;

function paramFix(name: string): string {
  return (
    `state the type with @Param('${name}', { type: ... }) (e.g. [String], [ItemDto], 'integer', a DTO class), ` +
    `the allowed values with { enum: MyEnum }, or a JSON Schema with { schema: { ... } }.`
  );
}

function propertyFix(cls: string, property: string): string {
  return (
    `add a class-validator type decorator to ${cls}.${property} (@IsString(), @IsInt(), @IsEnum(MyEnum), ` +
    `@ValidateNested() with @Type(() => ItemDto), …) or state the type with @Field({ type | enum | schema }).`
  );
}

interface Shape {
  readonly sides: number;
}

class QueryDto {
  @IsString() city!: string;
}

describe('bootstrap errors of tools and schemas', () => {
  describe(BootstrapErrorCode.DecoratorMetadataMissing, () => {
    it('explains that the compiler dropped design:paramtypes', async () => {
      class Tools {
        @Tool()
        run(@Param('city') city: string) {
          return city;
        }
      }
      Reflect.deleteMetadata('design:paramtypes', Tools.prototype, 'run');

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('DECORATOR_METADATA_MISSING');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): TypeScript emitted no parameter types for Tools.run (design:paramtypes is missing).\n` +
          `Cause: "emitDecoratorMetadata" is off, or the code was compiled by a tool that drops decorator metadata ` +
          `(esbuild, or babel without a metadata plugin).\n` +
          `Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in tsconfig.json and compile with tsc or swc, ` +
          `or generate the types with \`npx mcp-reflect generate\` and load them (McpFactory.create(AppModule, { metadata })).`,
      );
    });
  });

  describe(BootstrapErrorCode.ParamNameUnreadable, () => {
    it('refuses a destructured parameter with a bare @Param()', async () => {
      class Tools {
        @Tool()
        run(@Param() { city }: QueryDto) {
          return city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('PARAM_NAME_UNREADABLE');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): the name of parameter #0 cannot be read from the compiled code ` +
          `(the parameter is destructured, or the code was minified).\n` +
          `Fix: name the argument explicitly, e.g. @Param('city').`,
      );
    });
  });

  describe(BootstrapErrorCode.RestParameter, () => {
    it('refuses @Param() on a rest parameter', async () => {
      class Tools {
        @Tool()
        run(@Param() ...items: string[]) {
          return items;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('REST_PARAMETER');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameter #0 ('...items') is a rest parameter. MCP passes tool arguments by ` +
          `name, so a variable list of positional values has no schema.\n` +
          `Fix: take an array instead, e.g. @Param('items', { type: [String] }) items: string[].`,
      );
    });

    it('names the index of a rest parameter after others', async () => {
      class Tools {
        @Tool()
        run(@Param() first: string, @Param() ...rest: string[]) {
          return [first, ...rest];
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('REST_PARAMETER');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameter #1 ('...rest') is a rest parameter. MCP passes tool arguments by ` +
          `name, so a variable list of positional values has no schema.\n` +
          `Fix: take an array instead, e.g. @Param('rest', { type: [String] }) rest: string[].`,
      );
    });
  });

  describe(BootstrapErrorCode.UndecoratedParameter, () => {
    it('names the undecorated parameter', async () => {
      class Tools {
        @Tool()
        run(@Param() city: string, days: number) {
          return `${city}${days}`;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNDECORATED_PARAMETER');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameter #1 ('days') has no @Param(), @Args() or @Ctx() decorator, so there is ` +
          `no way to know how to fill it.\n` +
          `Fix: decorate it with @Param() for one argument, @Args() for the whole arguments object, or @Ctx() for the request context.`,
      );
    });
  });

  describe(BootstrapErrorCode.ArgsMixedWithParam, () => {
    it('refuses @Args() next to @Param()', async () => {
      class Tools {
        @Tool()
        run(@Args() query: QueryDto, @Param() days: number) {
          return `${query.city}${days}`;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('ARGS_MIXED_WITH_PARAM');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameter #0 uses @Args() and parameter #1 uses @Param(). ` +
          `@Args() binds the whole arguments object, so the two would describe the same arguments twice.\n` +
          `Fix: move parameter #1 into the DTO class of @Args(), or use only @Param() parameters.`,
      );
    });
  });

  describe(BootstrapErrorCode.DuplicateArgs, () => {
    it('refuses two @Args() parameters', async () => {
      class Tools {
        @Tool()
        run(@Args() first: QueryDto, @Args() second: QueryDto) {
          return first.city + second.city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('DUPLICATE_ARGS');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameters #0 and #1 both use @Args(); there is one arguments object.\n` +
          `Fix: keep one @Args() parameter.`,
      );
    });
  });

  describe(BootstrapErrorCode.DuplicateParamName, () => {
    it('refuses two parameters bound to one argument', async () => {
      class Tools {
        @Tool()
        run(@Param('city') from: string, @Param() days: number, @Param('city') to: string) {
          return `${from}${days}${to}`;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('DUPLICATE_PARAM_NAME');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameters #0 and #2 are both bound to the argument 'city'.\n` +
          `Fix: give each @Param() its own name, e.g. @Param('city2').`,
      );
    });
  });

  describe(BootstrapErrorCode.ArgsNotClass, () => {
    it('refuses @Args() typed with an interface', async () => {
      class Tools {
        @Tool()
        run(@Args() shape: Shape) {
          return shape.sides;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('ARGS_NOT_A_CLASS');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameter #0 uses @Args(), but its type was reflected as Object, not a DTO class.\n` +
          `Cause: @Args() builds the input schema from the class of the parameter; interfaces and type aliases are erased at runtime.\n` +
          `Fix: type the parameter with a class whose properties carry class-validator decorators, or give the schema ` +
          `with @Tool({ inputSchema: { ... } }).`,
      );
    });

    it('refuses @Args() typed with a primitive', async () => {
      class Tools {
        @Tool()
        run(@Args() city: string) {
          return city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('ARGS_NOT_A_CLASS');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): parameter #0 uses @Args(), but its type was reflected as String, not a DTO class.\n` +
          `Cause: @Args() builds the input schema from the class of the parameter; interfaces and type aliases are erased at runtime.\n` +
          `Fix: type the parameter with a class whose properties carry class-validator decorators, or give the schema ` +
          `with @Tool({ inputSchema: { ... } }).`,
      );
    });
  });

  describe(BootstrapErrorCode.UnreflectableType, () => {
    it('refuses a parameter typed with an interface', async () => {
      class Tools {
        @Tool()
        run(@Param() shape: Shape) {
          return shape.sides;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): the type of parameter #0 'shape' was reflected as Object.\n` +
          unreflectableCause +
          `Fix: ${paramFix('shape')}`,
      );
    });

    it('refuses a parameter typed with a union', async () => {
      class Tools {
        @Tool({ name: 'lookup' })
        run(@Param() city: string, @Param() id: string | number) {
          return `${city}${id}`;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'lookup' (Tools.run): the type of parameter #1 'id' was reflected as Object.\n` +
          unreflectableCause +
          `Fix: ${paramFix('id')}`,
      );
    });

    it('refuses a parameter typed with a mixed enum', async () => {
      enum Mixed {
        Text = 'text',
        Count = 1,
      }
      class Tools {
        @Tool()
        run(@Param() mode: Mixed) {
          return mode;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): the type of parameter #0 'mode' was reflected as Object.\n` +
          unreflectableCause +
          `Fix: ${paramFix('mode')}`,
      );
    });

    it('refuses a DTO property reflected as Object without a type decorator', async () => {
      class ShapeQuery {
        @IsDefined() shape!: Shape;
      }
      class Tools {
        @Tool()
        run(@Args() query: ShapeQuery) {
          return query.shape.sides;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): the type of property ShapeQuery.shape ` +
          `(in parameter #0 (@Args())) was reflected as Object.\n` +
          unreflectableCause +
          `Fix: ${propertyFix('ShapeQuery', 'shape')}`,
      );
    });

    it('refuses a DTO class without validated properties', async () => {
      class Untyped {
        city!: string;
      }
      class Tools {
        @Tool()
        run(@Args() query: Untyped) {
          return query.city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): parameter #0 (@Args()) has class Untyped, which declares no ` +
          `validated properties, so its schema would be an empty object.\n` +
          `Fix: decorate the properties of Untyped with class-validator decorators (@IsString(), @IsInt(), …) or @Field({ … }).`,
      );
    });

    it('refuses a Map parameter', async () => {
      class Tools {
        @Tool()
        run(@Param() counts: Map<string, number>) {
          return counts.size;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): parameter #0 'counts' has type Map, which JSON cannot carry.\n` +
          `Fix: ${paramFix('counts')}`,
      );
    });
  });

  describe(BootstrapErrorCode.ArrayItemTypeMissing, () => {
    it('refuses an array parameter without an item type', async () => {
      class Tools {
        @Tool()
        run(@Param() tags: string[]) {
          return tags;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('ARRAY_ITEM_TYPE_MISSING');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): parameter #0 'tags' is an array, but its item type is unknown ` +
          `(TypeScript reflects every array as Array).\n` +
          `Fix: state the item type with @Param('tags', { type: [String] }) (or [Number], [ItemDto], …), ` +
          `the allowed values with { enum: MyEnum }, or a JSON Schema with { schema: { type: 'array', items: { ... } } }.`,
      );
    });

    it('refuses a DTO array property without each: true or @Type()', async () => {
      class TagQuery {
        @IsArray() tags!: string[];
      }
      class Tools {
        @Tool()
        run(@Args() query: TagQuery) {
          return query.tags;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('ARRAY_ITEM_TYPE_MISSING');
      expect(error.message).toBe(
        `Cannot build the input schema of tool 'run' (Tools.run): property TagQuery.tags (in parameter #0 (@Args())) is an ` +
          `array, but its item type is unknown (TypeScript reflects every array as Array).\n` +
          `Fix: add a class-validator type decorator with each: true to TagQuery.tags (e.g. @IsString({ each: true })), ` +
          `@ValidateNested({ each: true }) with @Type(() => ItemDto), or state the item type with @Field({ type: [String] }).`,
      );
    });
  });

  describe(BootstrapErrorCode.DuplicateToolName, () => {
    it('refuses two classes with a tool of the same name', async () => {
      class Weather {
        @Tool()
        search(@Param() city: string) {
          return city;
        }
      }
      class Places {
        @Tool()
        search(@Param() query: string) {
          return query;
        }
      }

      const error = await bootstrapFailure(Weather, Places);

      expect(error.code).toBe('DUPLICATE_TOOL_NAME');
      expect(error.message).toBe(
        `Cannot register tool 'search': both Weather.search and Places.search use that name, and tool names must be unique in a server.\n` +
          `Fix: name one of them explicitly, e.g. @Tool({ name: 'search_2' }) on Places.search.`,
      );
    });
  });

  describe(BootstrapErrorCode.InvalidToolName, () => {
    it('refuses a name with a space', async () => {
      class Tools {
        @Tool({ name: 'get weather' })
        run(@Param() city: string) {
          return city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('INVALID_TOOL_NAME');
      expect(error.message).toBe(
        `Cannot register the tool of Tools.run: 'get weather' is not a valid MCP tool name. Names are 1 to 128 ` +
          `characters from A-Z, a-z, 0-9, '_', '-' and '.'.\n` +
          `Fix: name the tool explicitly, e.g. @Tool({ name: 'get_weather' }).`,
      );
    });

    it('refuses a name of 129 characters', async () => {
      const long = 'a'.repeat(129);
      class Tools {
        @Tool({ name: long })
        run(@Param() city: string) {
          return city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('INVALID_TOOL_NAME');
      expect(error.message).toBe(
        `Cannot register the tool of Tools.run: '${long}' is not a valid MCP tool name. Names are 1 to 128 ` +
          `characters from A-Z, a-z, 0-9, '_', '-' and '.'.\n` +
          `Fix: name the tool explicitly, e.g. @Tool({ name: '${'a'.repeat(128)}' }).`,
      );
    });

    it('refuses an empty name', async () => {
      class Tools {
        @Tool({ name: '' })
        run(@Param() city: string) {
          return city;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('INVALID_TOOL_NAME');
      expect(error.message).toBe(
        `Cannot register the tool of Tools.run: '' is not a valid MCP tool name. Names are 1 to 128 ` +
          `characters from A-Z, a-z, 0-9, '_', '-' and '.'.\n` +
          `Fix: name the tool explicitly, e.g. @Tool({ name: 'my_tool' }).`,
      );
    });
  });

  describe(BootstrapErrorCode.InvalidSchema, () => {
    it('refuses a raw input schema that ajv cannot compile', async () => {
      class Tools {
        @Tool({ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } })
        run(@Args() args: Record<string, unknown>) {
          return args;
        }
      }

      const error = await bootstrapFailure(Tools);

      expect(error.code).toBe('INVALID_SCHEMA');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): its input schema is not a valid JSON Schema: ` +
          `schema is invalid: data/properties/a/type must be equal to one of the allowed values, ` +
          `data/properties/a/type must be array, data/properties/a/type must match a schema in anyOf.\n` +
          `Fix: correct the schema given in the decorator options (schema, inputSchema or output).`,
      );
      expect(error.cause).toBeInstanceOf(Error);
    });

    // Generated schemas skip the meta-schema check (valid by construction); user-written parts never do.
    it('refuses an invalid JSON Schema given to @Param({ schema })', async () => {
      class Tools {
        @Tool()
        run(@Param('a', { schema: { minLength: 'two' } as never }) a: string) {
          return a;
        }
      }
      const error = await bootstrapFailure(Tools);
      expect(error.code).toBe('INVALID_SCHEMA');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): its input schema is not a valid JSON Schema: ` +
          `schema is invalid: data/properties/a/minLength must be integer.\n` +
          `Fix: correct the schema given in the decorator options (schema, inputSchema or output).`,
      );
    });

    it('refuses an invalid JSON Schema given to @Field({ schema }) of a DTO', async () => {
      class Input {
        @Field({ schema: { maxItems: -1 } }) @IsString({ each: true }) tags!: string[];
      }
      class Tools {
        @Tool()
        run(@Args() input: Input) {
          return input.tags.length;
        }
      }
      const error = await bootstrapFailure(Tools);
      expect(error.code).toBe('INVALID_SCHEMA');
      expect(error.message).toBe(
        `Cannot build tool 'run' (Tools.run): its input schema is not a valid JSON Schema: ` +
          `schema is invalid: data/properties/tags/maxItems must be >= 0.\n` +
          `Fix: correct the schema given in the decorator options (schema, inputSchema or output).`,
      );
    });
  });

  describe(BootstrapErrorCode.InvalidDefault, () => {
    it('refuses a default that the parameter schema rejects', async () => {
      class Tools {
        @Tool()
        repeat(@Param('times', { type: 'integer', default: 'twice', schema: { minimum: 1 } }) times: number) {
          return times;
        }
      }
      const error = await bootstrapFailure(Tools);
      expect(error.code).toBe('INVALID_DEFAULT');
      expect(error.message).toBe(
        `Cannot build tool 'repeat' (Tools.repeat): the default of parameter #0 'times', "twice", does not match the parameter's own schema: it must be an integer.\n` +
          `Fix: give @Param('times', { default }) a value of the parameter's type that passes its rules.`,
      );
    });
  });

  describe('output schemas', () => {
    it('says "output schema" when the output type cannot be reflected', async () => {
      class Tools {
        @Tool({ output: Object }) report() {
          return {};
        }
      }
      const error = await bootstrapFailure(Tools);
      expect(error.code).toBe('UNREFLECTABLE_TYPE');
      expect(error.message).toBe(
        `Cannot build the output schema of tool 'report' (Tools.report): the type of @Tool({ output }) was reflected as Object.\n` +
          unreflectableCause +
          `Fix: give @Tool({ output }) a DTO class, String, Number, Boolean, or [ItemType].`,
      );
    });
  });

  describe(BootstrapErrorCode.McpModuleMissing, () => {
    it('asks for McpModule.forRoot() when no module in the graph imports it', async () => {
      class Tools {
        @Tool()
        run(@Param() city: string) {
          return city;
        }
      }
      @Module({ providers: [Tools] })
      class AppModule {}

      const error = await failureOf(AppModule);

      expect(error.code).toBe('MCP_MODULE_MISSING');
      expect(error.message).toBe(
        `Cannot create the MCP server: McpModule is not imported anywhere in the module graph, so the server has no name or version.\n` +
          `Fix: add McpModule.forRoot({ name: 'my-server', version: '1.0.0' }) to the imports of the root module.`,
      );
    });
  });
});
