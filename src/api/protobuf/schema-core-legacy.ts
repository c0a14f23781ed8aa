/**
 * Protobuf schema tables: core/v1 in-tree (mostly deprecated) volume and persistent volume sources.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 in-tree (mostly deprecated) volume and persistent volume sources. */
export const coreLegacyVolumeTables: MessageTables = {
  /** k8s.io.api.core.v1.PersistentVolumeSource */
  'core.PersistentVolumeSource': [
    [1, 'gcePersistentDisk', 'core.GCEPersistentDiskVolumeSource', 'op'],
    [2, 'awsElasticBlockStore', 'core.AWSElasticBlockStoreVolumeSource', 'op'],
    [3, 'hostPath', 'core.HostPathVolumeSource', 'op'],
    [4, 'glusterfs', 'core.GlusterfsPersistentVolumeSource', 'op'],
    [5, 'nfs', 'core.NFSVolumeSource', 'op'],
    [6, 'rbd', 'core.RBDPersistentVolumeSource', 'op'],
    [7, 'iscsi', 'core.ISCSIPersistentVolumeSource', 'op'],
    [8, 'cinder', 'core.CinderPersistentVolumeSource', 'op'],
    [9, 'cephfs', 'core.CephFSPersistentVolumeSource', 'op'],
    [10, 'fc', 'core.FCVolumeSource', 'op'],
    [11, 'flocker', 'core.FlockerVolumeSource', 'op'],
    [12, 'flexVolume', 'core.FlexPersistentVolumeSource', 'op'],
    [13, 'azureFile', 'core.AzureFilePersistentVolumeSource', 'op'],
    [14, 'vsphereVolume', 'core.VsphereVirtualDiskVolumeSource', 'op'],
    [15, 'quobyte', 'core.QuobyteVolumeSource', 'op'],
    [16, 'azureDisk', 'core.AzureDiskVolumeSource', 'op'],
    [17, 'photonPersistentDisk', 'core.PhotonPersistentDiskVolumeSource', 'op'],
    [18, 'portworxVolume', 'core.PortworxVolumeSource', 'op'],
    [19, 'scaleIO', 'core.ScaleIOPersistentVolumeSource', 'op'],
    [20, 'local', 'core.LocalVolumeSource', 'op'],
    [21, 'storageos', 'core.StorageOSPersistentVolumeSource', 'op'],
    [22, 'csi', 'core.CSIPersistentVolumeSource', 'op'],
  ],
  /** k8s.io.api.core.v1.GCEPersistentDiskVolumeSource */
  'core.GCEPersistentDiskVolumeSource': [
    [1, 'pdName', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'partition', 'int32', 'o'],
    [4, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.AWSElasticBlockStoreVolumeSource */
  'core.AWSElasticBlockStoreVolumeSource': [
    [1, 'volumeID', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'partition', 'int32', 'o'],
    [4, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.GlusterfsPersistentVolumeSource */
  'core.GlusterfsPersistentVolumeSource': [
    [1, 'endpoints', 'string'],
    [2, 'path', 'string'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'endpointsNamespace', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.RBDPersistentVolumeSource */
  'core.RBDPersistentVolumeSource': [
    [1, 'monitors', 'string', 'r'],
    [2, 'image', 'string'],
    [3, 'fsType', 'string', 'o'],
    [4, 'pool', 'string', 'o'],
    [5, 'user', 'string', 'o'],
    [6, 'keyring', 'string', 'o'],
    [7, 'secretRef', 'core.SecretReference', 'op'],
    [8, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.ISCSIPersistentVolumeSource */
  'core.ISCSIPersistentVolumeSource': [
    [1, 'targetPortal', 'string'],
    [2, 'iqn', 'string'],
    [3, 'lun', 'int32'],
    [4, 'iscsiInterface', 'string', 'o'],
    [5, 'fsType', 'string', 'o'],
    [6, 'readOnly', 'bool', 'o'],
    [7, 'portals', 'string', 'or'],
    [8, 'chapAuthDiscovery', 'bool', 'o'],
    [11, 'chapAuthSession', 'bool', 'o'],
    [10, 'secretRef', 'core.SecretReference', 'op'],
    [12, 'initiatorName', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.CinderPersistentVolumeSource */
  'core.CinderPersistentVolumeSource': [
    [1, 'volumeID', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'secretRef', 'core.SecretReference', 'op'],
  ],
  /** k8s.io.api.core.v1.CephFSPersistentVolumeSource */
  'core.CephFSPersistentVolumeSource': [
    [1, 'monitors', 'string', 'r'],
    [2, 'path', 'string', 'o'],
    [3, 'user', 'string', 'o'],
    [4, 'secretFile', 'string', 'o'],
    [5, 'secretRef', 'core.SecretReference', 'op'],
    [6, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.FCVolumeSource */
  'core.FCVolumeSource': [
    [1, 'targetWWNs', 'string', 'or'],
    [2, 'lun', 'int32', 'op'],
    [3, 'fsType', 'string', 'o'],
    [4, 'readOnly', 'bool', 'o'],
    [5, 'wwids', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.FlockerVolumeSource */
  'core.FlockerVolumeSource': [
    [1, 'datasetName', 'string', 'o'],
    [2, 'datasetUUID', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.FlexPersistentVolumeSource */
  'core.FlexPersistentVolumeSource': [
    [1, 'driver', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'secretRef', 'core.SecretReference', 'op'],
    [4, 'readOnly', 'bool', 'o'],
    [5, 'options', 'string', 'om'],
  ],
  /** k8s.io.api.core.v1.AzureFilePersistentVolumeSource */
  'core.AzureFilePersistentVolumeSource': [
    [1, 'secretName', 'string'],
    [2, 'shareName', 'string'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'secretNamespace', 'string', 'p'],
  ],
  /** k8s.io.api.core.v1.VsphereVirtualDiskVolumeSource */
  'core.VsphereVirtualDiskVolumeSource': [
    [1, 'volumePath', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'storagePolicyName', 'string', 'o'],
    [4, 'storagePolicyID', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.QuobyteVolumeSource */
  'core.QuobyteVolumeSource': [
    [1, 'registry', 'string'],
    [2, 'volume', 'string'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'user', 'string', 'o'],
    [5, 'group', 'string', 'o'],
    [6, 'tenant', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.AzureDiskVolumeSource */
  'core.AzureDiskVolumeSource': [
    [1, 'diskName', 'string'],
    [2, 'diskURI', 'string'],
    [3, 'cachingMode', 'string', 'op'],
    [4, 'fsType', 'string', 'op'],
    [5, 'readOnly', 'bool', 'op'],
    [6, 'kind', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.PhotonPersistentDiskVolumeSource */
  'core.PhotonPersistentDiskVolumeSource': [
    [1, 'pdID', 'string'],
    [2, 'fsType', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.PortworxVolumeSource */
  'core.PortworxVolumeSource': [
    [1, 'volumeID', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.ScaleIOPersistentVolumeSource */
  'core.ScaleIOPersistentVolumeSource': [
    [1, 'gateway', 'string'],
    [2, 'system', 'string'],
    [3, 'secretRef', 'core.SecretReference', 'p'],
    [4, 'sslEnabled', 'bool', 'o'],
    [5, 'protectionDomain', 'string', 'o'],
    [6, 'storagePool', 'string', 'o'],
    [7, 'storageMode', 'string', 'o'],
    [8, 'volumeName', 'string', 'o'],
    [9, 'fsType', 'string', 'o'],
    [10, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.LocalVolumeSource */
  'core.LocalVolumeSource': [
    [1, 'path', 'string'],
    [2, 'fsType', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.StorageOSPersistentVolumeSource */
  'core.StorageOSPersistentVolumeSource': [
    [1, 'volumeName', 'string', 'o'],
    [2, 'volumeNamespace', 'string', 'o'],
    [3, 'fsType', 'string', 'o'],
    [4, 'readOnly', 'bool', 'o'],
    [5, 'secretRef', 'core.ObjectReference', 'op'],
  ],
  /** k8s.io.api.core.v1.CSIPersistentVolumeSource */
  'core.CSIPersistentVolumeSource': [
    [1, 'driver', 'string'],
    [2, 'volumeHandle', 'string'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'fsType', 'string', 'o'],
    [5, 'volumeAttributes', 'string', 'om'],
    [6, 'controllerPublishSecretRef', 'core.SecretReference', 'op'],
    [7, 'nodeStageSecretRef', 'core.SecretReference', 'op'],
    [8, 'nodePublishSecretRef', 'core.SecretReference', 'op'],
    [9, 'controllerExpandSecretRef', 'core.SecretReference', 'op'],
    [10, 'nodeExpandSecretRef', 'core.SecretReference', 'op'],
  ],
  /** k8s.io.api.core.v1.ISCSIVolumeSource */
  'core.ISCSIVolumeSource': [
    [1, 'targetPortal', 'string'],
    [2, 'iqn', 'string'],
    [3, 'lun', 'int32'],
    [4, 'iscsiInterface', 'string', 'o'],
    [5, 'fsType', 'string', 'o'],
    [6, 'readOnly', 'bool', 'o'],
    [7, 'portals', 'string', 'or'],
    [8, 'chapAuthDiscovery', 'bool', 'o'],
    [11, 'chapAuthSession', 'bool', 'o'],
    [10, 'secretRef', 'core.LocalObjectReference', 'op'],
    [12, 'initiatorName', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.GlusterfsVolumeSource */
  'core.GlusterfsVolumeSource': [
    [1, 'endpoints', 'string'],
    [2, 'path', 'string'],
    [3, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.RBDVolumeSource */
  'core.RBDVolumeSource': [
    [1, 'monitors', 'string', 'r'],
    [2, 'image', 'string'],
    [3, 'fsType', 'string', 'o'],
    [4, 'pool', 'string', 'o'],
    [5, 'user', 'string', 'o'],
    [6, 'keyring', 'string', 'o'],
    [7, 'secretRef', 'core.LocalObjectReference', 'op'],
    [8, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.FlexVolumeSource */
  'core.FlexVolumeSource': [
    [1, 'driver', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'secretRef', 'core.LocalObjectReference', 'op'],
    [4, 'readOnly', 'bool', 'o'],
    [5, 'options', 'string', 'om'],
  ],
  /** k8s.io.api.core.v1.CinderVolumeSource */
  'core.CinderVolumeSource': [
    [1, 'volumeID', 'string'],
    [2, 'fsType', 'string', 'o'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'secretRef', 'core.LocalObjectReference', 'op'],
  ],
  /** k8s.io.api.core.v1.CephFSVolumeSource */
  'core.CephFSVolumeSource': [
    [1, 'monitors', 'string', 'r'],
    [2, 'path', 'string', 'o'],
    [3, 'user', 'string', 'o'],
    [4, 'secretFile', 'string', 'o'],
    [5, 'secretRef', 'core.LocalObjectReference', 'op'],
    [6, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.AzureFileVolumeSource */
  'core.AzureFileVolumeSource': [
    [1, 'secretName', 'string'],
    [2, 'shareName', 'string'],
    [3, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.ScaleIOVolumeSource */
  'core.ScaleIOVolumeSource': [
    [1, 'gateway', 'string'],
    [2, 'system', 'string'],
    [3, 'secretRef', 'core.LocalObjectReference', 'p'],
    [4, 'sslEnabled', 'bool', 'o'],
    [5, 'protectionDomain', 'string', 'o'],
    [6, 'storagePool', 'string', 'o'],
    [7, 'storageMode', 'string', 'o'],
    [8, 'volumeName', 'string', 'o'],
    [9, 'fsType', 'string', 'o'],
    [10, 'readOnly', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.StorageOSVolumeSource */
  'core.StorageOSVolumeSource': [
    [1, 'volumeName', 'string', 'o'],
    [2, 'volumeNamespace', 'string', 'o'],
    [3, 'fsType', 'string', 'o'],
    [4, 'readOnly', 'bool', 'o'],
    [5, 'secretRef', 'core.LocalObjectReference', 'op'],
  ],
  /** k8s.io.api.core.v1.SecretReference */
  'core.SecretReference': [
    [1, 'name', 'string', 'o'],
    [2, 'namespace', 'string', 'o'],
  ],
};
