export function paramNameUnreadableMessage(owner: string, index: number): string {
  return (
    `Cannot build ${owner}: the name of parameter #${index} cannot be read from the compiled code ` +
    `(the parameter is destructured, or the code was minified).\n` +
    `Fix: name the argument explicitly, e.g. @Param('city').`
  );
}

export function restParameterMessage(owner: string, index: number, name: string): string {
  return (
    `Cannot build ${owner}: parameter #${index} ('...${name}') is a rest parameter. MCP passes tool arguments by ` +
    `name, so a variable list of positional values has no schema.\n` +
    `Fix: take an array instead, e.g. @Param('${name || 'items'}', { type: [String] }) ${name || 'items'}: string[].`
  );
}

export function undecoratedParameterMessage(owner: string, index: number, name: string | undefined): string {
  const shown = name ? ` ('${name}')` : '';
  return (
    `Cannot build ${owner}: parameter #${index}${shown} has no @Param(), @Args() or @Ctx() decorator, so there is ` +
    `no way to know how to fill it.\n` +
    `Fix: decorate it with @Param() for one argument, @Args() for the whole arguments object, or @Ctx() for the request context.`
  );
}

export function argsMixedWithParamMessage(owner: string, argsIndex: number, paramIndex: number): string {
  return (
    `Cannot build ${owner}: parameter #${argsIndex} uses @Args() and parameter #${paramIndex} uses @Param(). ` +
    `@Args() binds the whole arguments object, so the two would describe the same arguments twice.\n` +
    `Fix: move parameter #${paramIndex} into the DTO class of @Args(), or use only @Param() parameters.`
  );
}

export function duplicateArgsMessage(owner: string, first: number, second: number): string {
  return (
    `Cannot build ${owner}: parameters #${first} and #${second} both use @Args(); there is one arguments object.\n` +
    `Fix: keep one @Args() parameter.`
  );
}

export function duplicateParamNameMessage(owner: string, name: string, first: number, second: number): string {
  return (
    `Cannot build ${owner}: parameters #${first} and #${second} are both bound to the argument '${name}'.\n` +
    `Fix: give each @Param() its own name, e.g. @Param('${name}2').`
  );
}

export function argsNotClassMessage(owner: string, index: number, reflected: unknown): string {
  const what = typeof reflected === 'function' ? reflected.name : String(reflected);
  return (
    `Cannot build ${owner}: parameter #${index} uses @Args(), but its type was reflected as ${what}, not a DTO class.\n` +
    `Cause: @Args() builds the input schema from the class of the parameter; interfaces and type aliases are erased at runtime.\n` +
    `Fix: type the parameter with a class whose properties carry class-validator decorators, or give the schema ` +
    `with @Tool({ inputSchema: { ... } }).`
  );
}

export function decoratorMetadataMissingMessage(owner: string, className: string, method: string): string {
  return (
    `Cannot build ${owner}: TypeScript emitted no parameter types for ${className}.${method} (design:paramtypes is missing).\n` +
    `Cause: "emitDecoratorMetadata" is off, or the code was compiled by a tool that drops decorator metadata ` +
    `(esbuild, or babel without a metadata plugin).\n` +
    `Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in tsconfig.json and compile with tsc or swc, ` +
    `or generate the types with \`npx mcp-reflect generate\` and load them (McpFactory.create(AppModule, { metadata })).`
  );
}

export function generatedMetadataStaleMessage(
  owner: string,
  file: string,
  method: string,
  generated: string | undefined,
  running: string | undefined,
  differences: readonly string[],
): string {
  const found = running ? `the running method, ${running} (names as compiled),` : 'the running method';
  const what = generated
    ? `It was generated from ${file} for ${generated}, but ${found} differs: ${differences.join('; ')}.\n`
    : `It was generated from ${file} before the method ${method} existed.\n`;
  return (
    `Cannot build ${owner}: the generated metadata is stale. ` +
    what +
    `Fix: run \`npx mcp-reflect generate\`, then build (and bundle) again, so the file and the running code come from the same sources ` +
    `(\`mcp-reflect generate --check\` in CI fails a stale file). Names are not compared: bundlers rename parameters, and the file's names are advertised.`
  );
}

/** A name read from compiled code that a bundler may have given (`url2` for `url`), with no generated entry to correct it. */
export function renamedParameterMessage(owner: string, index: number, name: string): string {
  const written = name.replace(/\d+$/, '');
  return (
    `${owner}: parameter #${index} is advertised as '${name}', a name read from the compiled code that looks renamed by a bundler ` +
    `(esbuild renames '${written}' to '${name}' when a bundled module also declares '${written}' at top level).\n` +
    `Fix: name it with @Param('${written}') (or @Param('${name}') if that is its name), or load the metadata \`npx mcp-reflect generate\` writes ` +
    `(McpFactory.create(AppModule, { metadata })), whose names are the ones you wrote (docs/runtimes.md#bundles-and-parameter-names). ` +
    `Silence it with McpModule.forRoot({ warnings: { renamedParameters: false } }); 'error' stops the bootstrap instead.`
  );
}

export function invalidSchemaMessage(owner: string, which: string, reason: string): string {
  return (
    `Cannot build ${owner}: its ${which} is not a valid JSON Schema: ${reason}.\n` +
    `Fix: correct the schema given in the decorator options (schema, inputSchema or output).`
  );
}

export function runtimeSchemaMessage(owner: string, which: string, reason: string, origin: string): string {
  return (
    `Cannot build ${owner} of ${origin}: the ${which} it lists cannot be compiled: ${reason}.\n` +
    `Fix: the schema comes from that server, not from a decorator: correct it there. The component is left out until it lists a schema that compiles.`
  );
}

export function invalidDefaultMessage(owner: string, index: number, name: string, value: string, issues: string[]): string {
  return (
    `Cannot build ${owner}: the default of parameter #${index} '${name}', ${value}, does not match the parameter's own schema: ` +
    `${issues.join('; ')}.\n` +
    `Fix: give @Param('${name}', { default }) a value of the parameter's type that passes its rules.`
  );
}
