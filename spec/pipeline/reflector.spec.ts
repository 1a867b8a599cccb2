import 'reflect-metadata';
import { Reflector, SetMetadata } from 'mcp-reflect';

const Roles = Reflector.createDecorator<string[]>();
const Limits = Reflector.createDecorator<Record<string, number>>();

@Roles(['reader'])
@Limits({ calls: 10, bytes: 100 })
@SetMetadata('level', 1)
class Host {
  @Roles(['editor'])
  @Limits({ calls: 5 })
  @SetMetadata('level', 2)
  edit(): void {}

  read(): void {}
}

describe('Reflector', () => {
  const reflector = new Reflector();
  const handler = Host.prototype.edit;

  it('reads a typed decorator and SetMetadata from a method and from its class', () => {
    expect(reflector.get(Roles, handler)).toEqual(['editor']);
    expect(reflector.get(Roles, Host)).toEqual(['reader']);
    expect(reflector.get('level', handler)).toBe(2);
    expect(reflector.get(Roles, Host.prototype.read)).toBeUndefined();
  });

  it('gives each target its value, and the first defined one to override', () => {
    expect(reflector.getAll(Roles, [Host.prototype.read, Host])).toEqual([undefined, ['reader']]);
    expect(reflector.getAllAndOverride(Roles, [handler, Host])).toEqual(['editor']);
    expect(reflector.getAllAndOverride(Roles, [Host.prototype.read, Host])).toEqual(['reader']);
  });

  it('merges as NestJS does: arrays concatenated, objects spread with later keys winning, other values collected', () => {
    expect(reflector.getAllAndMerge(Roles, [handler, Host])).toEqual(['editor', 'reader']);
    expect(reflector.getAllAndMerge(Limits, [handler, Host])).toEqual({ calls: 10, bytes: 100 });
    expect(reflector.getAllAndMerge('level', [handler, Host])).toEqual([2, 1]);
    expect(reflector.getAllAndMerge(Roles, [Host.prototype.read])).toBeUndefined();
  });

  it('gives each created decorator a key of its own', () => {
    const Other = Reflector.createDecorator<string[]>();
    expect(Other.KEY).not.toBe(Roles.KEY);
    expect(reflector.get(Other, Host)).toBeUndefined();
  });
});
