/**
 * Protobuf schema tables: core/v1 Volume and the volume sources pods commonly use.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 Volume and the volume sources pods commonly use. */
export const coreVolumeTables: MessageTables = {
  /** k8s.io.api.core.v1.Volume */
  'core.Volume': [
    [1, 'name', 'string'],
    [2, '', 'core.VolumeSource', 'i'],
  ],
  /** k8s.io.api.core.v1.VolumeSource */
  'core.VolumeSource': [
    [1, 'hostPath', 'core.HostPathVolumeSource', 'op'],
    [2, 'emptyDir', 'core.EmptyDirVolumeSource', 'op'],
    [3, 'gcePersistentDisk', 'core.GCEPersistentDiskVolumeSource', 'op'],
    [4, 'awsElasticBlockStore', 'core.AWSElasticBlockStoreVolumeSource', 'op'],
    [5, 'gitRepo', 'core.GitRepoVolumeSource', 'op'],
    [6, 'secret', 'core.SecretVolumeSource', 'op'],
    [7, 'nfs', 'core.NFSVolumeSource', 'op'],
    [8, 'iscsi', 'core.ISCSIVolumeSource', 'op'],
    [9, 'glusterfs', 'core.GlusterfsVolumeSource', 'op'],
    [10, 'persistentVolumeClaim', 'core.PersistentVolumeClaimVolumeSource', 'op'],
    [11, 'rbd', 'core.RBDVolumeSource', 'op'],
    [12, 'flexVolume', 'core.FlexVolumeSource', 'op'],
    [13, 'cinder', 'core.CinderVolumeSource', 'op'],
    [14, 'cephfs', 'core.CephFSVolumeSource', 'op'],
    [15, 'flocker', 'core.FlockerVolumeSource', 'op'],
    [16, 'downwardAPI', 'core.DownwardAPIVolumeSource', 'op'],
    [17, 'fc', 'core.FCVolumeSource', 'op'],
    [18, 'azureFile', 'core.AzureFileVolumeSource', 'op'],
    [19, 'configMap', 'core.ConfigMapVolumeSource', 'op'],
    [20, 'vsphereVolume', 'core.VsphereVirtualDiskVolumeSource', 'op'],
    [21, 'quobyte', 'core.QuobyteVolumeSource', 'op'],
    [22, 'azureDisk', 'core.AzureDiskVolumeSource', 'op'],
    [23, 'photonPersistentDisk', 'core.PhotonPersistentDiskVolumeSource', 'op'],
    [26, 'projected', 'core.ProjectedVolumeSource', 'op'],
    [24, 'portworxVolume', 'core.PortworxVolumeSource', 'op'],
    [25, 'scaleIO', 'core.ScaleIOVolumeSource', 'op'],
    [27, 'storageos', 'core.StorageOSVolumeSource', 'op'],
    [28, 'csi', 'core.CSIVolumeSource', 'op'],
    [29, 'ephemeral', 'core.EphemeralVolumeSource', 'op'],
    [30, 'image', 'core.ImageVolumeSource', 'op'],
  ],
  /** k8s.io.api.core.v1.HostPathVolumeSource */
  'core.HostPathVolumeSource': [
    [1, 'path', 'string'],
    [2, 'type', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.NFSVolumeSource */
  'core.NFSVolumeSource': [
    [1, 'server', 'string'],
    [2, 'path', 'string'],
    [3, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.EmptyDirVolumeSource */
  'core.EmptyDirVolumeSource': [
    [1, 'medium', 'string', 'o'],
    [2, 'sizeLimit', 'Quantity', 'op'],
  ],
  /** k8s.io.api.core.v1.GitRepoVolumeSource */
  'core.GitRepoVolumeSource': [
    [1, 'repository', 'string'],
    [2, 'revision', 'string', 'o'],
    [3, 'directory', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.SecretVolumeSource */
  'core.SecretVolumeSource': [
    [1, 'secretName', 'string', 'o'],
    [2, 'items', 'core.KeyToPath', 'or'],
    [3, 'defaultMode', 'int32', 'op'],
    [4, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeClaimVolumeSource */
  'core.PersistentVolumeClaimVolumeSource': [
    [1, 'claimName', 'string'],
    [2, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.DownwardAPIVolumeSource */
  'core.DownwardAPIVolumeSource': [
    [1, 'items', 'core.DownwardAPIVolumeFile', 'or'],
    [2, 'defaultMode', 'int32', 'op'],
  ],
  /** k8s.io.api.core.v1.ConfigMapVolumeSource */
  'core.ConfigMapVolumeSource': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'items', 'core.KeyToPath', 'or'],
    [3, 'defaultMode', 'int32', 'op'],
    [4, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.ProjectedVolumeSource */
  'core.ProjectedVolumeSource': [
    [1, 'sources', 'core.VolumeProjection', 'r'],
    [2, 'defaultMode', 'int32', 'op'],
  ],
  /** k8s.io.api.core.v1.CSIVolumeSource */
  'core.CSIVolumeSource': [
    [1, 'driver', 'string'],
    [2, 'readOnly', 'bool', 'op'],
    [3, 'fsType', 'string', 'op'],
    [4, 'volumeAttributes', 'string', 'om'],
    [5, 'nodePublishSecretRef', 'core.LocalObjectReference', 'op'],
  ],
  /** k8s.io.api.core.v1.EphemeralVolumeSource */
  'core.EphemeralVolumeSource': [
    [1, 'volumeClaimTemplate', 'core.PersistentVolumeClaimTemplate', 'op'],
  ],
  /** k8s.io.api.core.v1.ImageVolumeSource */
  'core.ImageVolumeSource': [
    [1, 'reference', 'string', 'o'],
    [2, 'pullPolicy', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.KeyToPath */
  'core.KeyToPath': [
    [1, 'key', 'string'],
    [2, 'path', 'string'],
    [3, 'mode', 'int32', 'op'],
  ],
  /** k8s.io.api.core.v1.DownwardAPIVolumeFile */
  'core.DownwardAPIVolumeFile': [
    [1, 'path', 'string'],
    [2, 'fieldRef', 'core.ObjectFieldSelector', 'op'],
    [3, 'resourceFieldRef', 'core.ResourceFieldSelector', 'op'],
    [4, 'mode', 'int32', 'op'],
  ],
  /** k8s.io.api.core.v1.VolumeProjection */
  'core.VolumeProjection': [
    [1, 'secret', 'core.SecretProjection', 'op'],
    [2, 'downwardAPI', 'core.DownwardAPIProjection', 'op'],
    [3, 'configMap', 'core.ConfigMapProjection', 'op'],
    [4, 'serviceAccountToken', 'core.ServiceAccountTokenProjection', 'op'],
    [5, 'clusterTrustBundle', 'core.ClusterTrustBundleProjection', 'op'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeClaimTemplate */
  'core.PersistentVolumeClaimTemplate': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.PersistentVolumeClaimSpec'],
  ],
  /** k8s.io.api.core.v1.SecretProjection */
  'core.SecretProjection': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'items', 'core.KeyToPath', 'or'],
    [4, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.DownwardAPIProjection */
  'core.DownwardAPIProjection': [[1, 'items', 'core.DownwardAPIVolumeFile', 'or']],
  /** k8s.io.api.core.v1.ConfigMapProjection */
  'core.ConfigMapProjection': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'items', 'core.KeyToPath', 'or'],
    [4, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.ServiceAccountTokenProjection */
  'core.ServiceAccountTokenProjection': [
    [1, 'audience', 'string', 'o'],
    [2, 'expirationSeconds', 'int64', 'op'],
    [3, 'path', 'string'],
  ],
  /** k8s.io.api.core.v1.ClusterTrustBundleProjection */
  'core.ClusterTrustBundleProjection': [
    [1, 'name', 'string', 'op'],
    [2, 'signerName', 'string', 'op'],
    [3, 'labelSelector', 'meta.LabelSelector', 'op'],
    [5, 'optional', 'bool', 'op'],
    [4, 'path', 'string'],
  ],
};
