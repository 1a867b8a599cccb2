/**
 * A synthetic OpenAPI 3.0 document of `operations` operations (four per resource path: list with paging and
 * filter query parameters, create with a JSON body, get and delete by id), whose bodies and answers share
 * component schemas through `$ref`s (a resource with nested objects, arrays, enums and nullable fields) as a
 * real API's do. Deterministic: every run reads the same document.
 */
export function openApiDocument(operations: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  for (let i = 0; i * 4 < operations; i++) {
    const tag = `area${i % 25}`;
    const item = `Item${i % 40}`;
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } };
    paths[`/things${i}`] = {
      get: {
        operationId: `listThings${i}`,
        tags: [tag],
        summary: `List things ${i}`,
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'state', in: 'query', schema: { type: 'string', enum: ['open', 'closed', 'all'] } },
        ],
        responses: { 200: { description: 'the things', content: json({ type: 'array', items: ref(item) }) }, 404: { description: 'none', content: json(ref('Error')) } },
      },
      post: {
        operationId: `createThing${i}`,
        tags: [tag],
        requestBody: { required: true, content: json(ref(`New${item}`)) },
        responses: { 201: { description: 'created', content: json(ref(item)) }, 422: { description: 'invalid', content: json(ref('Error')) } },
      },
    };
    paths[`/things${i}/{id}`] = {
      parameters: [id],
      get: { operationId: `getThing${i}`, tags: [tag], responses: { 200: { description: 'the thing', content: json(ref(item)) }, 404: { description: 'none', content: json(ref('Error')) } } },
      delete: { operationId: `deleteThing${i}`, tags: [tag], responses: { 204: { description: 'deleted' } } },
    };
  }
  const schemas: Record<string, unknown> = {
    Error: { type: 'object', properties: { message: { type: 'string' }, documentation_url: { type: 'string', format: 'uri' } }, required: ['message'] },
    User: { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer' }, avatar_url: { type: 'string', format: 'uri' }, site_admin: { type: 'boolean' } }, required: ['login', 'id'] },
    Label: { type: 'object', properties: { name: { type: 'string' }, color: { type: 'string', pattern: '^[0-9a-f]{6}$' }, description: { type: 'string', nullable: true } }, required: ['name'] },
  };
  for (let k = 0; k < 40; k++) {
    schemas[`Item${k}`] = {
      type: 'object',
      properties: {
        id: { type: 'integer', format: 'int64', readOnly: true },
        title: { type: 'string', minLength: 1, maxLength: 256 },
        state: { type: 'string', enum: ['open', 'closed'] },
        owner: ref('User'),
        assignees: { type: 'array', items: ref('User') },
        labels: { type: 'array', items: ref('Label') },
        created_at: { type: 'string', format: 'date-time', readOnly: true },
        body: { type: 'string', nullable: true },
        [`field${k}`]: { type: 'number' },
      },
      required: ['id', 'title', 'state', 'owner'],
    };
    schemas[`NewItem${k}`] = { allOf: [ref(`Item${k}`)] };
  }
  return { openapi: '3.0.3', info: { title: `Synthetic API (${operations} operations)`, version: '1.0.0' }, paths, components: { schemas } };
}
