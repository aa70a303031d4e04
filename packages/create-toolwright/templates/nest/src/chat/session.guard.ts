import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';

/** The signed-in user: tools read it as ctx.auth, and a paused run belongs to them. */
export interface Session {
  userId: string;
}

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user: Session;
}

/**
 * A stand-in for your authentication (a session cookie, a JWT): it trusts the x-user-id header.
 * What matters is where the identity lands: request.user, set by the app, never by the model.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const userId = request.headers['x-user-id'];
    if (typeof userId !== 'string' || !/^u-[a-z0-9-]{1,40}$/.test(userId)) {
      throw new UnauthorizedException('send the x-user-id header (u-<name>)');
    }
    request.user = { userId };
    return true;
  }
}
