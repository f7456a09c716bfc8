import type { ComponentType } from 'react';
import {
  AuditLogsArticle,
  InvitingUsersArticle,
  UserAccessArticle,
  UserRolesArticle,
} from './administration';
import {
  AlertmanagerArticle,
  EmailAlertsArticle,
  GenericAlertsArticle,
  GrafanaArticle,
  IntegrationsArticle,
  MovingFromOpsgenieArticle,
  MovingFromPagerDutyArticle,
  OpsgenieFormatArticle,
  PagerDutyFormatArticle,
} from './alerts';
import { ApiTokensArticle } from './api-tokens';
import { WebhookReceiversArticle } from './destinations';
import { ProfileSetupArticle, SupportArticle, WelcomeArticle } from './getting-started';
import { ImportingArticle } from './importing';
import { NotificationSettingsHelp } from './notification-settings';
import {
  EmailNotificationsArticle,
  NotificationMethodsArticle,
  PagingOnCallArticle,
  SmsSetupArticle,
} from './notifications';
import {
  CoverageRequestsArticle,
  CreateRotationArticle,
  HandoffProcessArticle,
  ManageOnCallArticle,
  RotationLayersArticle,
  RotationsIntroArticle,
} from './rotations';
import { EncryptionArticle, SecurityDisclosuresArticle } from './security';
import { SlackAppArticle } from './slack';

/** ARTICLE_CONTENT maps each help article's slug to its body. */
export const ARTICLE_CONTENT: Record<string, ComponentType> = {
  welcome: WelcomeArticle,
  'profile-setup': ProfileSetupArticle,
  support: SupportArticle,
  'rotations-intro': RotationsIntroArticle,
  'create-rotation': CreateRotationArticle,
  'rotation-layers': RotationLayersArticle,
  'manage-oncall': ManageOnCallArticle,
  'coverage-requests': CoverageRequestsArticle,
  'handoff-process': HandoffProcessArticle,
  'notification-methods': NotificationMethodsArticle,
  'sms-setup': SmsSetupArticle,
  'email-notifications': EmailNotificationsArticle,
  'paging-oncall': PagingOnCallArticle,
  'notification-settings': NotificationSettingsHelp,
  integrations: IntegrationsArticle,
  'webhook-receivers': WebhookReceiversArticle,
  'alerts-alertmanager': AlertmanagerArticle,
  'alerts-grafana': GrafanaArticle,
  'alerts-pagerduty-format': PagerDutyFormatArticle,
  'alerts-opsgenie-format': OpsgenieFormatArticle,
  'alerts-generic': GenericAlertsArticle,
  'alerts-email': EmailAlertsArticle,
  'moving-from-opsgenie': MovingFromOpsgenieArticle,
  'moving-from-pagerduty': MovingFromPagerDutyArticle,
  importing: ImportingArticle,
  'inviting-users': InvitingUsersArticle,
  'user-access': UserAccessArticle,
  'user-roles': UserRolesArticle,
  'audit-logs': AuditLogsArticle,
  'security-disclosures': SecurityDisclosuresArticle,
  encryption: EncryptionArticle,
  'slack-app': SlackAppArticle,
  'api-tokens': ApiTokensArticle,
};
