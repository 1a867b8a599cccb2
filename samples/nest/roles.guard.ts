import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Context } from 'mcp-reflect/common';

/** `@Roles('notes:admin')`: who may call it (a REST route or an MCP tool). */
export const Roles = Reflector.createDecorator<string[]>();

/**
 * One guard for both worlds: on an MCP call (`context.getType() === 'mcp'`) the roles are the caller's scopes
 * (`ctx.auth`), over REST the `x-roles` header stands in for a real authentication guard.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const needed = this.reflector.getAllAndOverride(Roles, [context.getHandler(), context.getClass()]);
    if (!needed?.length) return true;
    const held =
      context.getType<string>() === 'mcp'
        ? context.switchToRpc().getContext<Context>().auth?.scopes ?? []
        : String(context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-roles'] ?? '').split(',');
    return needed.every((role) => held.includes(role));
  }
}
